package org.privadapt.models.dann;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.Stack;

/**
 * DANN's network (Ganin and Lempitsky 2015; paper 001, Sec. III): a feature extractor G_f (the trunk) feeding a label
 * predictor G_y and, through a gradient reversal layer, a domain classifier G_d (two classes: source 0, target 1).
 * Paper 001's literal variant keeps two domain heads, theta_ds for source inputs and theta_dt for target inputs
 * ({@link #splitHeads()}); the default shares one. Predictions are {@code G_y(G_f(x))}.
 */
public final class AdversarialNetwork implements Classifier {
    private final Stack trunk;
    private final Stack labelHead;
    private final Stack domainHead;
    private final Stack sourceDomainHead; // null unless the heads are split
    private final List<String> classNames;

    private AdversarialNetwork(Stack trunk, Stack labelHead, Stack domainHead, Stack sourceDomainHead, List<String> classNames) {
        this.trunk = trunk;
        this.labelHead = labelHead;
        this.domainHead = domainHead;
        this.sourceDomainHead = sourceDomainHead;
        this.classNames = List.copyOf(classNames);
    }

    /**
     * @param input        number of features
     * @param trunkWidths  widths of G_f's layers (e.g. {50} for paper 001's 5000-50 network)
     * @param trunkAct     G_f's activation (sigmoid in DANN's shallow network)
     * @param domainHidden hidden widths of G_d (empty: one linear layer f -> 2)
     * @param splitHeads   paper 001's literal two domain heads
     */
    public static AdversarialNetwork create(int input, int[] trunkWidths, Activation trunkAct, List<String> classNames,
                                            int[] domainHidden, Activation domainAct, boolean splitHeads, long seed) {
        if (trunkWidths.length == 0) {
            throw new IllegalArgumentException("the feature extractor needs at least one layer");
        }
        SplittableRandom rng = new SplittableRandom(seed);
        int[] ts = new int[trunkWidths.length + 1];
        ts[0] = input;
        System.arraycopy(trunkWidths, 0, ts, 1, trunkWidths.length);
        Stack trunk = Stack.create(ts, trunkAct, trunkAct, rng);
        int f = trunkWidths[trunkWidths.length - 1];
        Stack label = Stack.create(new int[] {f, classNames.size()}, Activation.IDENTITY, Activation.IDENTITY, rng);
        int[] ds = new int[domainHidden.length + 2];
        ds[0] = f;
        System.arraycopy(domainHidden, 0, ds, 1, domainHidden.length);
        ds[ds.length - 1] = 2;
        Stack domain = Stack.create(ds, domainAct, Activation.IDENTITY, rng);
        Stack sourceDomain = splitHeads ? Stack.create(ds, domainAct, Activation.IDENTITY, rng) : null;
        return new AdversarialNetwork(trunk, label, domain, sourceDomain, classNames);
    }

    public Stack trunk() {
        return trunk;
    }

    public Stack labelHead() {
        return labelHead;
    }

    /** The domain head used for target inputs (the shared one unless split). */
    public Stack targetDomainHead() {
        return domainHead;
    }

    /** The domain head used for source inputs (the shared one unless split). */
    public Stack sourceDomainHead() {
        return sourceDomainHead != null ? sourceDomainHead : domainHead;
    }

    public boolean splitHeads() {
        return sourceDomainHead != null;
    }

    /** Every layer, trunk first (for parameter counts and copies). */
    public List<org.privadapt.models.nn.graph.DenseLayer> allLayers() {
        List<DenseLayer> all = new ArrayList<>(trunk.layers());
        all.addAll(labelHead.layers());
        all.addAll(domainHead.layers());
        if (sourceDomainHead != null) {
            all.addAll(sourceDomainHead.layers());
        }
        return all;
    }

    public AdversarialNetwork copy() {
        return new AdversarialNetwork(trunk.copy(), labelHead.copy(), domainHead.copy(),
                sourceDomainHead == null ? null : sourceDomainHead.copy(), classNames);
    }

    @Override
    public int dimension() {
        return trunk.in();
    }

    @Override
    public List<String> classNames() {
        return classNames;
    }

    @Override
    public DenseMatrix predictProba(FeatureMatrix x) {
        DenseMatrix f = trunk.forward(x).output();
        return Softmax.inPlace(labelHead.forward(f).output().copy());
    }
}
