package org.privadapt.data.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.DataException;

/** Issue 46: a named label column the header lacks is refused by both readers, not read as one more feature. */
class LabelColumnsTest {
    @TempDir
    Path dir;

    static DataFiles.Options target(String label, boolean namedLabelOptional) {
        return new DataFiles.Options(null, null, label, false, false, List.of(), null, 0, null, true, namedLabelOptional);
    }

    @Test
    void aMisspeltLabelColumnIsRefusedByTheWholeFileAndTheStreamingReaderAlike() throws Exception {
        Path f = dir.resolve("t.csv");
        Files.writeString(f, "a,b,cls\n1,2,x\n3,4,y\n");
        String expected = f + ":line 1 (header): no column 'clss' for --label-column (did you mean 'cls'?); the header's 3 columns "
                + "are [a, b, cls]; name one of them, or --label-column none for unlabelled rows";
        assertThatThrownBy(() -> DataFiles.load(f, "t", target("clss", false))).isInstanceOf(DataException.class).hasMessage(expected);
        assertThatThrownBy(() -> RowChunks.open(f, "t", target("clss", false))).isInstanceOf(DataException.class).hasMessage(expected);
        // a number beyond the header: no suggestion
        assertThatThrownBy(() -> DataFiles.load(f, "t", target("9", false))).hasMessageContaining("no column '9' for --label-column;");
        // another case, the right column
        assertThat(DataFiles.load(f, "t", target("CLS", false)).dimension()).isEqualTo(2);
        assertThat(RowChunks.open(f, "t", target("CLS", false)).dimension()).isEqualTo(2);
        // beside a file that must hold it, the adaptation target may lack it: read unlabelled
        Path u = dir.resolve("u.csv");
        Files.writeString(u, "a,b\n1,2\n3,4\n");
        assertThat(DataFiles.load(u, "u", target("cls", true)).hasLabels()).isFalse();
        assertThat(RowChunks.open(u, "u", target("cls", true)).labelled()).isFalse();
        assertThatThrownBy(() -> DataFiles.load(u, "u", target("cls", false))).hasMessageContaining("no column 'cls'");
    }

    @Test
    void suggestionsAreOnlyForCloseNames() {
        List<String> cols = List.of("f1", "f2", "label", "outcome");
        assertThat(LabelColumns.didYouMean("lable", cols)).isEqualTo("label");
        assertThat(LabelColumns.didYouMean("outcom", cols)).isEqualTo("outcome");
        assertThat(LabelColumns.didYouMean("y", cols)).isEmpty();
        assertThat(LabelColumns.didYouMean("12", cols)).isEmpty();
        assertThat(LabelColumns.didYouMean("target", cols)).isEmpty();
    }
}
