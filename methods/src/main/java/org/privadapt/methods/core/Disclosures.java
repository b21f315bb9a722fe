package org.privadapt.methods.core;

import org.privadapt.data.Dataset;
import org.privadapt.data.PublicFacts;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;

/**
 * The facts about a protected party's dataset that a release carries without noise, checked before anything is
 * charged: a release may carry the number of records n, the class set or a feature layout read from the rows only if
 * the party declared it public ({@link PublicFacts}: the suite registry for published benchmarks, or the user's
 * {@code --source-public} / {@code --target-public} / {@code --public}), or, for n, when the guarantee is stated
 * under replace-one neighbours, where n is the same on both sides. Otherwise the release is refused: a class held by
 * one record, or n recovered from a sampling rate, would be revealed exactly (docs/privacy/neighbouring-relations.md).
 */
public final class Disclosures {
    private Disclosures() {
    }

    /** Which facts a release carries. */
    public enum Fact { SIZE, CLASSES, SCHEMA }

    /**
     * @param what   the release, for the message (e.g. "dp-source-only: the DP-SGD model")
     * @throws IllegalArgumentException naming the first undeclared fact and how to declare it
     */
    public static void require(Dataset d, PrivacySession session, String what, Fact... facts) {
        PublicFacts pf = d.publicFacts();
        String party = session.party();
        for (Fact f : facts) {
            switch (f) {
                case SIZE -> {
                    if (!pf.sizePublic() && session.relation() != NeighbouringRelation.REPLACE_ONE) {
                        throw new IllegalArgumentException(what + " reveals the " + party + "'s number of records n (DP-SGD's sampling "
                                + "rate and step count are functions of it), which is private under add/remove neighbours: run under "
                                + "replace-one neighbours (--relation replace; n is then public), or declare n public ("
                                + option(party, "size") + ")");
                    }
                }
                case CLASSES -> {
                    if (d.hasLabels() && !pf.classesPublic()) {
                        throw new IllegalArgumentException(what + " carries the " + party + "'s class set (names and number), read "
                                + "from its rows, where a class held by one record would be revealed exactly: declare the class set "
                                + "public (" + option(party, "classes") + ")");
                    }
                }
                case SCHEMA -> {
                    if (!pf.schemaPublic()) {
                        throw new IllegalArgumentException(what + " carries the " + party + "'s feature layout (" + d.dimension()
                                + " features), which was read from its rows (one-hot levels, a vocabulary, or an SVMlight dimension "
                                + "from the largest index): declare it public (" + option(party, "schema") + "), or give the layout "
                                + "explicitly (--dimension)");
                    }
                }
                default -> throw new IllegalStateException(f.toString());
            }
        }
    }

    /** The command-line option that declares facts public for {@code party}. */
    static String option(String party, String fact) {
        return "--" + party + "-public " + fact + "; in the two-party commands --public " + fact
                + "; from Java: dataset.withPublicFacts(PublicFacts.parse(List.of(\"" + fact + "\"), \"who declares it\"))";
    }

    /** The facts a DP-SGD model of {@code party} carries: n (sampling rate, steps), the class set, the layout. */
    public static void requireForDpSgdModel(Dataset d, PrivacySession session, String what) {
        require(d, session, what, Fact.SIZE, Fact.CLASSES, Fact.SCHEMA);
    }
}
