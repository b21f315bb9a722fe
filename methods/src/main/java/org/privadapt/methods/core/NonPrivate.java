package org.privadapt.methods.core;

import java.util.Map;
import org.privadapt.privacy.PrivacyCost;

/** The privacy statement of a non-private method: both parties' data is read without protection. */
public final class NonPrivate {
    private NonPrivate() {
    }

    /** Both parties: not private. */
    public static Map<String, PrivacyCost> both() {
        return Map.of("source", PrivacyCost.NOT_PRIVATE, "target", PrivacyCost.NOT_PRIVATE);
    }

    /** Source read without protection, target not read at all. */
    public static Map<String, PrivacyCost> sourceOnly() {
        return Map.of("source", PrivacyCost.NOT_PRIVATE, "target", PrivacyCost.NONE);
    }

    /** Target read without protection (for its own use), source not read (beyond the public list of class names). */
    public static Map<String, PrivacyCost> targetOnly() {
        return Map.of("source", PrivacyCost.NONE, "target", PrivacyCost.NOT_PRIVATE);
    }
}
