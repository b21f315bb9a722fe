package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.privadapt.cli.report.Report;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;

class RunsRepeatTest {
    /** A method whose accuracy is its seed (so repeated outcomes are visible) and that counts its calls. */
    static final class Counting implements AdaptationMethod {
        final AtomicInteger calls = new AtomicInteger();
        final boolean deterministic;

        Counting(boolean deterministic) {
            this.deterministic = deterministic;
        }

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public String description() {
            return "test";
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public boolean deterministic(MethodConfig config) {
            return deterministic;
        }

        @Override
        public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy) {
            calls.incrementAndGet();
            return new AdaptationOutcome(name(), config.seed() / 100.0, new int[0], java.util.List.of("a"), NonPrivate.both(), Map.of());
        }
    }

    static AdaptationTask task() {
        var p = SyntheticShift.generate(new SyntheticShift.Config(4, 2, 10, 10, 4.0, 3.0, 1.0), 1);
        return new AdaptationTask("t", p.source(), p.target().withoutLabels(), p.target());
    }

    @Test
    void deterministicMethodsRunOncePerTaskOthersOncePerRun() throws Exception {
        for (int jobs : new int[] {1, 2}) {
            Counting det = new Counting(true);
            Report.TaskResult r = Runs.repeat(det, task(), MethodConfig.defaults(), 5, Map.of(), "s", "t", null,
                    run -> PrivacyContext.seeded(1, 1e-5, run), jobs);
            assertThat(det.calls.get()).isEqualTo(1);
            assertThat(r.runs()).isEqualTo(5);
            assertThat(r.accuracies()).hasSize(5).containsOnly(0.01);
            assertThat(r.accuracyStd()).isZero();

            Counting random = new Counting(false);
            Report.TaskResult q = Runs.repeat(random, task(), MethodConfig.defaults(), 5, Map.of(), "s", "t", null,
                    run -> PrivacyContext.seeded(1, 1e-5, run), jobs);
            assertThat(random.calls.get()).isEqualTo(5);
            assertThat(q.accuracies()).containsExactly(0.01, 0.02, 0.03, 0.04, 0.05);
        }
    }
}
