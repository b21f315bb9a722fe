package org.privadapt.data.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/**
 * The text encoders on the classpath ({@link java.util.ServiceLoader} of {@link TextEncoder}), and the name of the
 * built-in one, {@value #BOW} (the hashed bag of words, {@link HashedBagOfWords}, which is no {@code TextEncoder}: its
 * features are sparse and it needs no model).
 */
public final class TextEncoders {
    /** The built-in hashed bag of words, the default. */
    public static final String BOW = "bow";

    private TextEncoders() {
    }

    /** The encoder's name as given, lower case; {@value #BOW} for null or blank. */
    public static String normalise(String name) {
        return name == null || name.isBlank() ? BOW : name.trim().toLowerCase(Locale.ROOT);
    }

    /** The names of the encoders on the classpath, and {@value #BOW}. */
    public static List<String> available() {
        List<String> names = new ArrayList<>();
        names.add(BOW);
        for (TextEncoder e : ServiceLoader.load(TextEncoder.class)) {
            names.add(e.name());
        }
        return names;
    }

    /**
     * The encoder of that name, null for {@value #BOW}.
     *
     * @throws IllegalArgumentException (one line) when no encoder of that name is on the classpath
     */
    public static TextEncoder find(String name) {
        String n = normalise(name);
        if (n.equals(BOW)) {
            return null;
        }
        for (TextEncoder e : ServiceLoader.load(TextEncoder.class)) {
            if (e.name().equals(n)) {
                return e;
            }
        }
        throw new IllegalArgumentException("encoder=" + n + ": no such text encoder on the classpath (have: "
                + String.join(", ", available()) + "); the launcher ./privadapt runs the encoders jar "
                + "(encoders/target/privadapt-encoders.jar) when encoder=minilm is asked");
    }
}
