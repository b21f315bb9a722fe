package org.privadapt.examples;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.privadapt.da.CoralTransport;
import org.privadapt.da.LogisticRegressionClassifier;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.PublicFacts;
import org.privadapt.data.io.DataFiles;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.dp.PrivateClassifier;
import org.privadapt.methods.core.Adaptation;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/** The README's tour of the Java API (the README shows this file; a test checks that the two agree). */
public final class JavaApiTour {
    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("privadapt-tour");

        // Data: DataFiles.load reads what the CLI reads (CSV/TSV, SVMlight, MAT; options as the CLI's flags), e.g.
        //   Dataset source = DataFiles.load(Path.of("source.csv"), "source", DataFiles.Options.DEFAULT);
        // Here a generated pair (class-conditional Gaussians, the target stretched and shifted), written and read back:
        SyntheticShift.Problem p = SyntheticShift.generate(new SyntheticShift.Config(8, 3, 500, 500, 4.0, 3.0, 1.0), 7);
        Path csv = dir.resolve("source.csv");
        StringBuilder text = new StringBuilder("f0,f1,f2,f3,f4,f5,f6,f7,label\n");
        double[][] rows = p.source().featureRows();
        ClassLabels labels = p.source().classLabels();
        for (int i = 0; i < rows.length; i++) {
            for (double v : rows[i]) {
                text.append(v).append(',');
            }
            text.append(labels.names().get(labels.code(i))).append('\n');
        }
        Files.writeString(csv, text);
        Dataset source = DataFiles.load(csv, "source", DataFiles.Options.DEFAULT);
        Dataset target = p.target();

        // A release may carry n, the class set or the layout only if the party declares them public (the CLI's
        // --public size,classes); from Java the same declaration is made on the Dataset, naming who made it:
        PublicFacts declared = PublicFacts.parse(List.of("size", "classes"), "the source's data steward");
        source = source.withPublicFacts(declared);
        target = target.withPublicFacts(declared);

        // org.privadapt.da: estimators on double[n][d] arrays (non-private), as POT's ot.da
        double[][] xs = source.featureRows();
        int[] ys = source.classCodes();
        double[][] xt = target.featureRows();
        double[][] aligned = new CoralTransport(1.0).fit(xs, xt).transform(xs);
        int[] predicted = new LogisticRegressionClassifier().fit(aligned, ys).predict(xt);
        System.out.printf("CORAL (not private) predicted %d target rows%n", predicted.length);

        // org.privadapt.dp: a private classifier for a target epsilon, charged to a ledger before any noise is drawn
        // (as Opacus's make_private_with_epsilon). n enters DP-SGD's sampling rate and the model has one output per
        // class, so both are declared public here (or use replaceOne() for n); fit refuses otherwise.
        try {
            PrivateClassifier clf = PrivateClassifier.builder().learner("dp-sgd").epsilon(2).delta(1e-5).epochs(5).batch(100)
                    .sizeIsPublic().classes(3).party("source").ledger(dir.resolve("source.ledger"), 10).build().fit(xs, ys);
            System.out.printf("DP-SGD source model: spent epsilon %.3f%n", clf.spentEpsilon());
        } catch (BudgetExceededException e) {
            System.out.println("refused, nothing spent: " + e.getMessage()); // the ledger cannot pay for this fit
        }

        // org.privadapt.methods.core: any method on a pair, as `privadapt run` does once. A PrivacySession is one run
        // of one party: it refuses to spend past its (epsilon, delta); use a new one for each run (the ledger, if
        // any, is what composes the runs and refuses past the party's total).
        PrivacySession sourceSession = PrivacySession.builder("source").epsilon(2).delta(1e-5)
                .ledger(dir.resolve("source.ledger"), 10).build();
        PrivacySession targetSession = PrivacySession.builder("target").epsilon(2).delta(1e-5).build();
        AdaptationOutcome out = Adaptation.run("dp-source-only", source, target.withoutLabels(), target, "l2",
                MethodConfig.defaults(), new PrivacyContext(sourceSession, targetSession));
        System.out.printf("dp-source-only target accuracy %.1f %%, source spent epsilon %.3f%n", 100 * out.accuracy(),
                sourceSession.spent().epsilon());
        System.out.printf("source ledger: %d release(s)%n", BudgetLedger.open(dir.resolve("source.ledger")).read().entries().size());
    }
}
