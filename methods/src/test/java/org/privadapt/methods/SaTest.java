package org.privadapt.methods;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.sa.SubspaceAlignment;

class SaTest {
    @Test
    void theBasesAreOrthonormalAndEachCallGetsThoseOfItsOwnTask() throws Exception {
        for (AdaptationTask t : CoralTest.sameSourceTwoTargets()) {
            for (int k : new int[] {2, 3}) {
                MethodConfig c = MethodConfig.defaults().withParam("k", Integer.toString(k));
                var o = Methods.get("sa").run(t, c, PrivacyContext.secure(1, 1e-5));
                DenseMatrix ps = SubspaceAlignment.basisOfRows(t.source().features(), k);
                DenseMatrix pt = SubspaceAlignment.basisOfRows(t.target().features(), k);
                assertThat(LinAlg.multiplyTransA(ps, ps).minus(DenseMatrix.identity(k)).maxAbs()).isLessThan(1e-10);
                var model = Classifiers.train(c, SubspaceAlignment.transformSource(t.source().features(), ps, pt),
                        t.source().classLabels());
                int[] pred = new int[t.evaluation().size()];
                double acc = Classifiers.accuracy(model, SubspaceAlignment.transformTarget(t.evaluation().features(), pt),
                        t.evaluation(), pred);
                assertThat(o.predictions()).as(t.name() + " k " + k).containsExactly(pred);
                assertThat(o.accuracy()).isEqualTo(acc);
            }
        }
    }
}
