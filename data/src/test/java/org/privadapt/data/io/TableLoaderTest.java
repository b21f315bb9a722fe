package org.privadapt.data.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.RealTargets;

class TableLoaderTest {
    @TempDir
    Path dir;

    Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    static DataFiles.Options opts(String label, boolean oneHot, boolean dropMissing) {
        return new DataFiles.Options(null, null, label, oneHot, dropMissing, List.of(), null, 0, null);
    }

    @Test
    void csvWithHeaderQuotesAndCrlf() throws Exception {
        Path p = write("a.csv", "\"lang\",\"x1\",\"x2\"\r\n\"ES\",1.5,-2\r\n\"US\",3,4e-1\r\n");
        Dataset d = DataFiles.load(p, "d", opts("lang", false, false));
        assertThat(d.size()).isEqualTo(2);
        assertThat(d.featureNames()).containsExactly("x1", "x2");
        assertThat(d.features().row(1)).containsExactly(3, 0.4);
        assertThat(d.classLabels().names()).containsExactly("ES", "US");
    }

    @Test
    void labelColumnIsFoundByConventionalNameOrRequired() throws Exception {
        Path p = write("b.csv", "f1,f2,class\n1,2,a\n3,4,b\n");
        assertThat(DataFiles.load(p, "d", DataFiles.Options.DEFAULT).classLabels().names()).containsExactly("a", "b");
        Path q = write("c.csv", "f1,f2,outcome\n1,2,a\n");
        assertThatThrownBy(() -> DataFiles.load(q, "d", DataFiles.Options.DEFAULT))
                .isInstanceOf(DataException.class).hasMessageContaining("--label-column");
        Dataset byNumber = DataFiles.load(q, "d", opts("3", false, false));
        assertThat(byNumber.classLabels().names()).containsExactly("a");
        Dataset unlabelled = DataFiles.load(write("u.csv", "f1,f2\n1,2\n"), "d", opts("none", false, false));
        assertThat(unlabelled.hasLabels()).isFalse();
        assertThatThrownBy(() -> DataFiles.load(q, "d", opts("nope", false, false))).hasMessageContaining("no column 'nope'");
    }

    @Test
    void wrongFieldCountIsReportedWithLine() throws Exception {
        Path p = write("w.csv", "a,b,label\n1,2,x\n3,4\n5,6,y\n");
        assertThatThrownBy(() -> DataFiles.load(p, "d", opts("label", false, false)))
                .isInstanceOf(DataException.class).hasMessage(p + ":line 3: expected 3 fields (as in the header), found 2");
    }

    @Test
    void nonNumberIsReportedWithLineAndField() throws Exception {
        Path p = write("n.csv", "a,b,label\n1,2,x\n3,4z,y\n5,6,y\n");
        assertThatThrownBy(() -> DataFiles.load(p, "d", opts("label", false, false)))
                .hasMessage(p + ":line 3, field 2 ('b'): '4z' is not a number (column 'b' holds numbers elsewhere)");
    }

    @Test
    void nanAndInfinityAreRejected() throws Exception {
        Path p = write("nan.csv", "a,b,label\n1,2,x\n3,NaN,y\n");
        assertThatThrownBy(() -> DataFiles.load(p, "d", opts("label", false, false)))
                .hasMessage(p + ":line 3, field 2 ('b'): 'NaN' is not a finite number (column 'b' holds numbers elsewhere)");
        Path q = write("inf.csv", "a,b,label\n1,-Infinity,x\n3,1e400,y\n4,5,y\n");
        assertThatThrownBy(() -> DataFiles.load(q, "d", opts("label", false, false)))
                .hasMessageContaining(":line 2, field 2 ('b'): '-Infinity' is not a finite number");
    }

    @Test
    void categoricalColumnsRejectedOrOneHotEncoded() throws Exception {
        Path p = write("cat.csv", "age,work,label\n30,private,yes\n40,gov,no\n50,private,no\n");
        assertThatThrownBy(() -> DataFiles.load(p, "d", opts("label", false, false)))
                .hasMessage(p + ":line 2, field 2 ('work'): column 'work' is categorical ('private'); "
                        + "encode it with --categorical one-hot or drop it with --drop-columns");
        Dataset d = DataFiles.load(p, "d", opts("label", true, false));
        assertThat(d.featureNames()).containsExactly("age", "work=gov", "work=private");
        assertThat(d.features().row(1)).containsExactly(40, 1, 0);
        DataFiles.Options drop = new DataFiles.Options(null, null, "label", false, false, List.of("work"), null, 0, null);
        assertThat(DataFiles.load(p, "d", drop).dimension()).isEqualTo(1);
    }

    @Test
    void missingValuesAreAnErrorOrDropTheRow() throws Exception {
        Path p = write("m.csv", "a,b,label\n1,?,x\n3,4,y\n,6,y\n");
        assertThatThrownBy(() -> DataFiles.load(p, "d", opts("label", false, false)))
                .hasMessage(p + ":line 2, field 2 ('b'): missing value '?'; drop such rows with --missing drop");
        Dataset d = DataFiles.load(p, "d", opts("label", false, true));
        assertThat(d.size()).isEqualTo(1);
        assertThat(d.provenance().steps()).anyMatch(s -> s.contains("dropped (2 of 3)"));
    }

    @Test
    void tsvAndWhitespaceLayouts() throws Exception {
        Dataset t = DataFiles.load(write("t.tsv", "x\ty\tlabel\n1\t2\t0\n3\t4\t1\n"), "d", opts("label", false, false));
        assertThat(t.features().row(1)).containsExactly(3, 4);
        Dataset w = DataFiles.load(write("w.asc", "x   y label\n 1 2 0\n3    4   1\n"), "d", opts("label", false, false));
        assertThat(w.features().row(0)).containsExactly(1, 2);
        Dataset r = DataFiles.load(write("r.txt", "x y target\n1 2 0.5\n3 4 1.5\n"), "d", DataFiles.Options.DEFAULT);
        assertThat(r.labels().orElseThrow()).isInstanceOf(RealTargets.class);
    }

    @Test
    void fixedWidthLayout() throws Exception {
        Path p = write("fw.data", "61  1  1 15.04 14.96\n61  1  2100.00  6.50\n");
        TextTable t = TextTable.read(p, new TextTable.Format(TextTable.Separator.FIXED_WIDTH, new int[] {2, 3, 3, 6, 6},
                false, List.of("yr", "mo", "dy", "A", "B"), null));
        assertThat(t.row(1)).containsExactly("61", "1", "2", "100.00", "6.50");
        Path bad = write("fw2.data", "61  1\n");
        assertThatThrownBy(() -> TextTable.read(bad, new TextTable.Format(TextTable.Separator.FIXED_WIDTH,
                new int[] {2, 3, 3}, false, null, null))).hasMessage(bad + ":line 1, column 6: line ends before fixed-width field 3 of 3");
    }

    @Test
    void oneSchemaAcrossSeveralTablesAndSkippedLines() throws Exception {
        Path a = write("a.data", "30, private, <=50K\n40, gov, >50K\n");
        Path b = write("b.test", "|1x3 Cross validator\n50, self, >50K.\n");
        TextTable.Format f = new TextTable.Format(TextTable.Separator.COMMA, null, false, List.of("age", "work", "income"), "|");
        List<Dataset> ds = TableEncoder.encode(List.of(TextTable.read(a, f), TextTable.read(b, f)), List.of("A", "B"),
                TableEncoder.Options.labelled("income").withCategorical(TableEncoder.Categorical.ONE_HOT).withLabelSuffix("."),
                "text");
        assertThat(ds.get(0).featureNames()).containsExactly("age", "work=gov", "work=private", "work=self");
        assertThat(ds.get(1).features().row(0)).containsExactly(50, 0, 0, 1);
        assertThat(ds.get(1).classLabels().names()).containsExactly("<=50K", ">50K");
        assertThat(ds.get(1).classLabels().code(0)).isEqualTo(1);
    }

    @Test
    void unknownExtensionAndMissingFile() throws Exception {
        Path p = write("x.xlsx", "nope");
        assertThatThrownBy(() -> DataFiles.load(p, "d", DataFiles.Options.DEFAULT)).hasMessageContaining("unknown file type");
        Path q = dir.resolve("absent.csv");
        assertThatThrownBy(() -> DataFiles.load(q, "d", DataFiles.Options.DEFAULT)).hasMessage(q + ": no such file");
        Path e = write("empty.csv", "");
        assertThatThrownBy(() -> DataFiles.load(e, "d", DataFiles.Options.DEFAULT)).hasMessage(e + ":line 1: file is empty: no header line");
    }
}
