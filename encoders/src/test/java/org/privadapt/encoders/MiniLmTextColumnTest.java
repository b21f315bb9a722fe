package org.privadapt.encoders;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.Dataset;
import org.privadapt.data.io.DataFiles;
import org.privadapt.data.io.TextColumnTable;
import org.privadapt.data.text.EncodedTextCache;
import org.privadapt.data.text.EncodingProgress;
import org.privadapt.data.text.TextEncoding;

/**
 * A CSV file's text column (issue 47, {@code --text-column}) encoded by all-MiniLM-L6-v2 on three sentences: the
 * features follow the numeric column, equal the encoder's own on the same texts, are read back from the cache the same,
 * and name the encoder for a release to record. Skipped as {@link MiniLmTest} is when the model cannot run here.
 */
class MiniLmTextColumnTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void model() {
        MiniLmTest.model();
    }

    @Test
    void theColumnsFeaturesAreTheEncodersAndTheCacheGivesThemBack() throws Exception {
        Path csv = dir.resolve("notes.csv");
        Files.writeString(csv, "age,note,label\n41,normal chest radiograph,a\n52,\"enlarged heart, small effusion\",b\n35,,a\n");
        MiniLm enc = new MiniLm();
        TextEncoding encoding = new TextEncoding(enc, new EncodedTextCache(dir.resolve("cache")), EncodingProgress.NONE);
        DataFiles.Options o = new DataFiles.Options(null, null, null, false, false, List.of(), null, 0, null);
        Dataset fresh = TextColumnTable.load(csv, "notes", o, "note", encoding);
        Dataset cached = TextColumnTable.load(csv, "notes", o, "note", encoding);
        double[][] direct = enc.encode(List.of("normal chest radiograph", "enlarged heart, small effusion", ""), k -> { });
        assertThat(fresh.dimension()).isEqualTo(1 + 384);
        for (int i = 0; i < 3; i++) {
            double[] row = fresh.features().row(i);
            assertThat(row[0]).isEqualTo(new double[] {41, 52, 35}[i]);
            assertThat(java.util.Arrays.copyOfRange(row, 1, 385)).containsExactly(direct[i]);
            assertThat(cached.features().row(i)).containsExactly(row);
        }
        assertThat(TextEncoding.identity(cached)).isEqualTo(new TextEncoding.Identity("minilm", enc.hash()));
    }
}
