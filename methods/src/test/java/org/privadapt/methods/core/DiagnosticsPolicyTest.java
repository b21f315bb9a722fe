package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Reports carry a method's diagnostics only when they are DP or public: every non-private method's are; among private
 * methods only those whose docs/privacy page vouches for each key (paper 003's, docs/privacy/bassily.md; paper 004's, gmm-uda.md). A new
 * private method that opts in must be added here deliberately.
 */
class DiagnosticsPolicyTest {
    static final Set<String> VOUCHED = Set.of("pcnvxadap", "pcnvxadap-stats", "pncnvxadap", "dp-target-only", "dp-uda-gmm",
            "dp-source-only", "dpda", "g-dpda");

    @Test
    void onlyVettedPrivateMethodsReportTheirDiagnostics() {
        for (AdaptationMethod m : Methods.all()) {
            if (!m.isPrivate()) {
                assertThat(m.diagnosticsArePublic()).as(m.name()).isTrue();
            } else {
                assertThat(m.diagnosticsArePublic()).as(m.name()).isEqualTo(VOUCHED.contains(m.name()));
            }
        }
        // e.g. PATE's vote agreement and DPOT's row counts are statistics of protected rows without noise
        assertThat(Methods.get("pate").diagnosticsArePublic()).isFalse();
        assertThat(Methods.get("dpot-da").diagnosticsArePublic()).isFalse();
    }
}
