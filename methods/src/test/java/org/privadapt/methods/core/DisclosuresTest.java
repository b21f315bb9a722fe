package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.data.Dataset;
import org.privadapt.data.PublicFacts;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/** Issue 14.2 and 14.5: what a release may carry about a protected party's data without noise. */
class DisclosuresTest {
    static PrivacySession session(NeighbouringRelation r) {
        return new PrivacySession("source", new PrivacyBudget(1, 1e-5), r, NoiseSource.seeded(1), null);
    }

    static final Dataset FILE = Neighbours.random(20, 4, 3, 1.0, 1).dataset("file.csv");

    @Test
    void nIsPrivateUnderAddRemoveUnlessDeclaredAndPublicUnderReplaceOne() {
        assertThatThrownBy(() -> Disclosures.require(FILE, session(NeighbouringRelation.ADD_OR_REMOVE_ONE), "x", Disclosures.Fact.SIZE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--source-public size")
                .hasMessageContaining("--relation replace");
        Disclosures.require(FILE, session(NeighbouringRelation.REPLACE_ONE), "x", Disclosures.Fact.SIZE);
        Dataset declared = FILE.withPublicFacts(PublicFacts.parse(List.of("size"), "test"));
        Disclosures.require(declared, session(NeighbouringRelation.ADD_OR_REMOVE_ONE), "x", Disclosures.Fact.SIZE);
        // a data-dependent row selection no longer has the declared size
        Dataset selected = declared.selectRows(new int[] {0, 2, 4}, "some rows");
        assertThat(selected.publicFacts().sizePublic()).isFalse();
        assertThat(declared.withFeatures(declared.features(), "step").publicFacts().sizePublic()).isTrue();
    }

    @Test
    void theClassSetIsPrivateUnlessDeclared() {
        assertThatThrownBy(() -> Disclosures.require(FILE, session(NeighbouringRelation.REPLACE_ONE), "x", Disclosures.Fact.CLASSES))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("class set");
        Disclosures.require(FILE.withPublicFacts(PublicFacts.parse(List.of("classes"), "test")), session(NeighbouringRelation.REPLACE_ONE),
                "x", Disclosures.Fact.CLASSES);
        Disclosures.require(FILE.withoutLabels(), session(NeighbouringRelation.REPLACE_ONE), "x", Disclosures.Fact.CLASSES);
    }

    @Test
    void aLayoutReadFromTheRowsIsPrivateUnlessDeclared() {
        Disclosures.require(FILE, session(NeighbouringRelation.REPLACE_ONE), "x", Disclosures.Fact.SCHEMA); // a file's columns
        Dataset vocabulary = FILE.withSchemaFromRows();
        assertThatThrownBy(() -> Disclosures.require(vocabulary, session(NeighbouringRelation.REPLACE_ONE), "x", Disclosures.Fact.SCHEMA))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("feature layout");
        Disclosures.require(vocabulary.withPublicFacts(PublicFacts.parse(List.of("schema"), "test")), session(NeighbouringRelation.REPLACE_ONE),
                "x", Disclosures.Fact.SCHEMA);
        assertThatThrownBy(() -> PublicFacts.parse(List.of("sizes"), "t")).hasMessageContaining("unknown public fact 'sizes'");
    }

    @Test
    void loadersMarkLayoutsTheyReadFromTheRows(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path svm = dir.resolve("a.svmlight");
        java.nio.file.Files.writeString(svm, "1 1:0.5 3:1\n0 2:1\n");
        Dataset noDim = org.privadapt.data.io.SvmLightLoader.load(svm, "a", org.privadapt.data.io.SvmLightLoader.Options.AUTO);
        assertThat(noDim.publicFacts().schemaPublic()).isFalse();
        Dataset dim = org.privadapt.data.io.SvmLightLoader.load(svm, "a", new org.privadapt.data.io.SvmLightLoader.Options(org.privadapt.data.io.SvmLightLoader.IndexBase.AUTO, 5));
        assertThat(dim.publicFacts().schemaPublic()).isTrue();
    }
}
