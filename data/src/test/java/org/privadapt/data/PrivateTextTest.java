package org.privadapt.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The setting that keeps values, counts and row numbers read from private rows out of messages (issue 46 item 4):
 * how it is read, its scope, the pieces, and the safety net {@link DataException} applies to messages built outside the
 * data module (the streamed learners' and the Spark engine's, whose exact wording is copied here).
 */
class PrivateTextTest {
    @Test
    void theSettingIsOffUnlessSaidAndAnUnknownValueRedacts() {
        assertThat(PrivateText.on(null)).isFalse();
        for (String off : List.of("", "plain", "OFF", "false", "no", " plain ")) {
            assertThat(PrivateText.on(off)).as(off).isFalse();
        }
        for (String on : List.of("redact", "REDACT", "on", "true", "yes", "redacted", "rdact")) {
            assertThat(PrivateText.on(on)).as(on).isTrue();
        }
    }

    @Test
    void theSystemPropertyIsReadEachTimeAndAScopeWinsAndIsRestored() {
        String before = System.getProperty(PrivateText.PROPERTY);
        try {
            System.setProperty(PrivateText.PROPERTY, "redact");
            assertThat(PrivateText.redacting()).isTrue();
            assertThat(PrivateText.row(17)).isEqualTo("<redacted>");
            try (PrivateText.Scope off = PrivateText.redact(false)) {
                assertThat(PrivateText.redacting()).isFalse();
                try (PrivateText.Scope on = PrivateText.redact(true)) {
                    assertThat(PrivateText.redacting()).isTrue();
                }
                assertThat(PrivateText.redacting()).isFalse();
            }
            assertThat(PrivateText.redacting()).isTrue();
            System.setProperty(PrivateText.PROPERTY, "plain"); // the property wins over the environment
            assertThat(PrivateText.redacting()).isFalse();
        } finally {
            if (before == null) {
                System.clearProperty(PrivateText.PROPERTY);
            } else {
                System.setProperty(PrivateText.PROPERTY, before);
            }
        }
    }

    @Test
    void offEveryPieceIsTodaysTextOnEachIsTheToken() {
        try (PrivateText.Scope s = PrivateText.redact(false)) {
            assertThat(PrivateText.quoted("abc")).isEqualTo("'abc'");
            assertThat(PrivateText.value(Double.NaN)).isEqualTo("NaN");
            assertThat(PrivateText.count(7)).isEqualTo("7");
            assertThat(PrivateText.row(17)).isEqualTo("17");
            assertThat(PrivateText.dimension(1000, false)).isEqualTo("1000");
            assertThat(PrivateText.foreign("record in line 17")).isEqualTo("record in line 17");
            assertThat(PrivateText.position("row 17")).isEqualTo("row 17");
            assertThat(PrivateText.problem("label 'zebra'")).isEqualTo("label 'zebra'");
        }
        try (PrivateText.Scope s = PrivateText.redact(true)) {
            assertThat(List.of(PrivateText.quoted("abc"), PrivateText.value(Double.NaN), PrivateText.count(7), PrivateText.row(17),
                    PrivateText.dimension(1000, false), PrivateText.foreign("record in line 17"))).containsOnly("<redacted>");
            assertThat(PrivateText.dimension(3, true)).as("a public dimension").isEqualTo("3");
        }
    }

    /** The streamed learners' refusal of a label outside --classes (methods/stream), and its row number. */
    static DataException streamLabel() {
        return new DataException("src.csv", "row 17", "label 'zebra' is not one of the classes [a, b, c]");
    }

    @Test
    void theStreamedLearnersBadLabelKeepsNeitherTheLabelNorTheRow() {
        assertThat(streamLabel()).hasMessage("src.csv:row 17: label 'zebra' is not one of the classes [a, b, c]");
        try (PrivateText.Scope s = PrivateText.redact(true)) {
            DataException e = streamLabel();
            assertThat(e).hasMessage("src.csv:row <redacted>: label <redacted> is not one of the classes [a, b, c]");
            assertThat(e.position()).isEqualTo("row <redacted>");
            assertThat(e.file()).isEqualTo("src.csv");
            assertThat(new DataException("src.csv", "row 16", "target 'x7' is not a number"))
                    .hasMessage("src.csv:row <redacted>: target <redacted> is not a number");
        }
    }

    @Test
    void theSparkEnginesCountsAndExampleCellAreRedacted() {
        String[][] cases = {
            // position, problem (as SparkData and SparkRowEngine word them), redacted message
            {null, "column 'f2': 7 value(s) are not numbers (e.g. 'secret-cell')",
                "t.parquet: column 'f2': <redacted> value(s) are not numbers (e.g. <redacted>)"},
            {null, "column 'f2': 7 value(s) are missing", "t.parquet: column 'f2': <redacted> value(s) are missing"},
            {null, "column 'f2': 7 value(s) are not finite (NaN or infinite)",
                "t.parquet: column 'f2': <redacted> value(s) are not finite (NaN or infinite)"},
            {null, "column 'y': 7 label(s) are missing", "t.parquet: column 'y': <redacted> label(s) are missing"},
            {"column 'y'", "7 row(s) have a label outside --classes a,b,c",
                "t.parquet:column 'y': <redacted> row(s) have a label outside --classes a,b,c"},
        };
        for (String[] c : cases) {
            try (PrivateText.Scope s = PrivateText.redact(false)) {
                assertThat(new DataException("t.parquet", c[0], c[1]).getMessage()).contains("7").doesNotContain("<redacted>");
            }
            try (PrivateText.Scope s = PrivateText.redact(true)) {
                DataException e = new DataException("t.parquet", c[0], c[1]);
                assertThat(e).hasMessage(c[2]);
                assertThat(e.getMessage()).doesNotContain("7").doesNotContain("secret");
            }
        }
    }

    @Test
    void schemaInPositionsStays() {
        try (PrivateText.Scope s = PrivateText.redact(true)) {
            assertThat(PrivateText.position("line 1 (header)")).isEqualTo("line 1 (header)");
            assertThat(PrivateText.position("line 12, field 3 ('age')")).isEqualTo("line <redacted>, field 3 ('age')");
            assertThat(PrivateText.position("row 12, column 4")).isEqualTo("row <redacted>, column 4");
            assertThat(PrivateText.position("variable 'X1'")).isEqualTo("variable 'X1'");
            assertThat(PrivateText.problem("no column 'label' for --label-column; the header's 3 columns are [a, b, c]"))
                    .isEqualTo("no column 'label' for --label-column; the header's 3 columns are [a, b, c]");
            assertThat(PrivateText.problem("expected 3 fields (as in the header), found <redacted>"))
                    .isEqualTo("expected 3 fields (as in the header), found <redacted>");
        }
    }

    @Test
    void aLabelOutsideTheClassesIsNamedOnlyWhenNotRedacting() {
        ClassLabels y = ClassLabels.fromStrings(List.of("a", "zebra", "b"));
        assertThatThrownBy(() -> y.recodeTo(List.of("a", "b", "c"))).hasMessage("class 'zebra' is not among [a, b, c]");
        try (PrivateText.Scope s = PrivateText.redact(true)) {
            assertThatThrownBy(() -> y.recodeTo(List.of("a", "b", "c"))).hasMessage("class <redacted> is not among [a, b, c]");
            // as the source command words it (a DataException around the message above)
            assertThat(new DataException("src.csv", null, "a row's label is outside --classes: class 'zebra' is not among [a, b, c]"))
                    .hasMessage("src.csv: a row's label is outside --classes: class <redacted> is not among [a, b, c]");
        }
    }
}
