package org.privadapt.examples;

import java.nio.file.Files;
import java.nio.file.Path;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.PrimaMethod;
import org.privadapt.methods.prima.SourceModel;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.models.Metrics;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The PRIMA two-party flow in Java (paper 000), as the CLI's target release / source train / target predict run it:
 * only the two DP artifacts cross between the parties, written to files here. Each party spends at most epsilon 2.
 */
public final class PrimaTwoParty {
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("privadapt-prima");
        SyntheticShift.Problem p = SyntheticShift.generate(new SyntheticShift.Config(10, 3, 600, 600, 4.0, 3.0, 1.0), 7);
        String pre = "l2,scale=3"; // row-local: nothing is fitted on either party's rows
        MethodConfig mc = MethodConfig.defaults();

        // --- target institution: release DP statistics of its (unlabelled) rows
        Dataset target = Preprocessing.parse(pre).fitAndApply(p.target().withoutLabels());
        PrimaMethod prima = PrimaMethod.prima();
        PrimaConfig cfg = prima.config(mc, pre);
        PrivacySession targetSession = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5),
                NeighbouringRelation.ADD_OR_REMOVE_ONE, NoiseSource.secure(), null);
        TargetRelease release = Prima.release(target, cfg, pre, prima.name(), 1L, "example-target", targetSession);
        Path releaseFile = dir.resolve("release.json");
        release.toArtifact().write(releaseFile);

        // --- source institution: read the release, train its DP model, send the model back
        TargetRelease received = TargetRelease.fromArtifact(Artifact.read(releaseFile, "release"), releaseFile.toString());
        Dataset source = Preprocessing.parse(pre).fitAndApply(p.source());
        PrivacySession sourceSession = new PrivacySession("source", new PrivacyBudget(2.0, 1e-5),
                NeighbouringRelation.ADD_OR_REMOVE_ONE, NoiseSource.secure(), null);
        SourceModel model = Prima.train(source, received, mc, sourceSession);
        Path modelFile = dir.resolve("model.json");
        model.toArtifact("example-source").write(modelFile);

        // --- target institution: predict its rows with the received model (post-processing: free)
        SourceModel got = SourceModel.fromArtifact(Artifact.read(modelFile, "model"), modelFile.toString());
        Dataset evaluation = Preprocessing.parse(pre).fitAndApply(p.target());
        int[] predicted = Prima.predict(got, evaluation);
        double accuracy = Metrics.accuracy(predicted, evaluation.classLabels());
        System.out.printf("PRIMA target accuracy %.1f %%; target spent epsilon %.3f, source %.3f (delta 1e-5 each)%n",
                100 * accuracy, targetSession.spent().epsilon(), sourceSession.spent().epsilon());
        System.out.println("artifacts: " + releaseFile + ", " + modelFile);
    }
}
