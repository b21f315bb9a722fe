package org.privadapt.data.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.RealTargets;

class SvmLightLoaderTest {
    @TempDir
    Path dir;

    Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void zeroBasedIndicesAreDetectedAndLabelsSortNumerically() throws Exception {
        Path p = write("a.svmlight", "1 0:6 3:2.5\n-1 1:1 # a comment\n\n+1 2:4 qid:7\n");
        Dataset d = SvmLightLoader.load(p, "d", SvmLightLoader.Options.AUTO);
        assertThat(d.size()).isEqualTo(3);
        assertThat(d.dimension()).isEqualTo(4);
        assertThat(d.features().isSparse()).isTrue();
        assertThat(d.features().row(0)).containsExactly(6, 0, 0, 2.5);
        assertThat(d.classLabels().names()).containsExactly("-1", "1");
        assertThat(d.classLabels().codes()).containsExactly(1, 0, 1);
        assertThat(d.provenance().files().get(0).detail()).contains("0-based (detected");
    }

    @Test
    void oneBasedIsAssumedWithoutIndexZeroAndCanBeStated() throws Exception {
        Path p = write("b.svm", "1 1:6 4:2\r\n2 2:1\r\n");
        Dataset d = SvmLightLoader.load(p, "d", SvmLightLoader.Options.AUTO);
        assertThat(d.dimension()).isEqualTo(4);
        assertThat(d.features().row(0)).containsExactly(6, 0, 0, 2);
        Dataset z = SvmLightLoader.load(p, "d", new SvmLightLoader.Options(SvmLightLoader.IndexBase.ZERO, 10));
        assertThat(z.dimension()).isEqualTo(10);
        assertThat(z.features().get(0, 1)).isEqualTo(6);
        Path q = write("c.svm", "1 0:1\n");
        assertThatThrownBy(() -> SvmLightLoader.load(q, "d", new SvmLightLoader.Options(SvmLightLoader.IndexBase.ONE, 0)))
                .hasMessageContaining("declared 1-based");
    }

    @Test
    void unsortedIndicesAreSortedAndDuplicatesRejected() throws Exception {
        Dataset d = SvmLightLoader.load(write("u.svm", "1 3:1 0:2\n"), "d", SvmLightLoader.Options.AUTO);
        assertThat(d.features().row(0)).containsExactly(2, 0, 0, 1);
        Path dup = write("dup.svm", "1 1:1\n1 3:1 3:2\n");
        assertThatThrownBy(() -> SvmLightLoader.load(dup, "d", SvmLightLoader.Options.AUTO))
                .hasMessage(dup + ":line 2: feature index 3 appears twice");
    }

    @Test
    void realLabelsBecomeTargets() throws Exception {
        Dataset d = SvmLightLoader.load(write("r.svm", "0.5 1:1\n2.25 2:1\n"), "d", SvmLightLoader.Options.AUTO);
        assertThat(d.labels().orElseThrow()).isInstanceOf(RealTargets.class);
    }

    @Test
    void malformedTokensAreReportedWithLineAndToken() throws Exception {
        Path p = write("bad.svm", "1 1:1\n1 2:1 x\n");
        assertThatThrownBy(() -> SvmLightLoader.load(p, "d", SvmLightLoader.Options.AUTO))
                .isInstanceOf(DataException.class).hasMessage(p + ":line 2, token 3: 'x' is not index:value");
        Path q = write("bad2.svm", "abc 1:1\n");
        assertThatThrownBy(() -> SvmLightLoader.load(q, "d", SvmLightLoader.Options.AUTO))
                .hasMessage(q + ":line 1, token 1: label 'abc' is not a number");
        Path r = write("bad3.svm", "1 1:zz\n");
        assertThatThrownBy(() -> SvmLightLoader.load(r, "d", SvmLightLoader.Options.AUTO))
                .hasMessage(r + ":line 1, token 2: value 'zz' is not a number");
        Path s = write("bad4.svm", "1 1:NaN\n");
        assertThatThrownBy(() -> SvmLightLoader.load(s, "d", SvmLightLoader.Options.AUTO))
                .hasMessage(s + ":line 1, token 2: value 'NaN' is not a finite number");
        Path t = write("bad5.svm", "1 -3:1\n");
        assertThatThrownBy(() -> SvmLightLoader.load(t, "d", SvmLightLoader.Options.AUTO)).hasMessageContaining("negative feature index");
        Path u = write("bad6.svm", "1 7:1\n");
        assertThatThrownBy(() -> SvmLightLoader.load(u, "d", new SvmLightLoader.Options(SvmLightLoader.IndexBase.ZERO, 5)))
                .hasMessageContaining("exceeds the stated dimension 5");
    }

    @Test
    void emptyFileGivesAnEmptyDatasetThatIsRejectedWhenUsed() throws Exception {
        Path p = write("empty.svm", "\n# only a comment\n");
        Dataset d = SvmLightLoader.load(p, "d", SvmLightLoader.Options.AUTO);
        assertThat(d.size()).isZero();
        assertThatThrownBy(d::requireNonEmpty).hasMessageContaining(p.toString()).hasMessageContaining("no examples");
    }
}
