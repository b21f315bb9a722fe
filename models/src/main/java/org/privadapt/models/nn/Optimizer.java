package org.privadapt.models.nn;

/**
 * Updates a network from a (possibly privatised) gradient. Optimisers only post-process the gradient they are
 * given, so their state (momentum, moments) carries no extra privacy cost.
 *
 * <p>The state is kept per parameter array, by position: {@link #step(double[][], double[][], double)} must be
 * called with the same arrays in the same order every time (the {@link Network} form does so itself); it lets
 * modules that are not a {@link Network} (e.g. the engine's stacks) use the same optimisers.
 */
public interface Optimizer {
    /** One update of {@code params[k]} from {@code grads[k]} (same shapes, same order on every call). */
    void step(double[][] params, double[][] grads, double learningRate);

    default void step(Network net, Gradients g, double learningRate) {
        step(params(net), g.arrays(), learningRate);
    }

    String describe();

    /** Plain or momentum SGD: {@code v = mu v + g; theta -= lr v}. */
    static Optimizer sgd(double momentum) {
        return new Optimizer() {
            private double[][] velocity;

            @Override
            public void step(double[][] pa, double[][] ga, double lr) {
                if (momentum > 0 && velocity == null) {
                    velocity = new double[ga.length][];
                    for (int k = 0; k < ga.length; k++) {
                        velocity[k] = new double[ga[k].length];
                    }
                }
                for (int k = 0; k < ga.length; k++) {
                    double[] p = pa[k];
                    double[] d = ga[k];
                    if (momentum > 0) {
                        double[] v = velocity[k];
                        for (int j = 0; j < p.length; j++) {
                            v[j] = momentum * v[j] + d[j];
                            p[j] -= lr * v[j];
                        }
                    } else {
                        for (int j = 0; j < p.length; j++) {
                            p[j] -= lr * d[j];
                        }
                    }
                }
            }

            @Override
            public String describe() {
                return momentum > 0 ? "sgd(momentum=" + momentum + ")" : "sgd";
            }
        };
    }

    /** Adam (Kingma and Ba 2015) with bias correction. */
    static Optimizer adam(double beta1, double beta2, double eps) {
        return adamW(beta1, beta2, eps, 0.0);
    }

    /**
     * AdamW (Loshchilov and Hutter 2019): Adam with decoupled weight decay, {@code theta -= lr wd theta} before the
     * Adam step, on every parameter array given (PyTorch's default, biases included). {@code weightDecay = 0} is Adam.
     */
    static Optimizer adamW(double beta1, double beta2, double eps, double weightDecay) {
        if (!(weightDecay >= 0)) {
            throw new IllegalArgumentException("weight decay must be >= 0, got " + weightDecay);
        }
        return new Optimizer() {
            private double[][] m;
            private double[][] v;
            private long t;

            @Override
            public void step(double[][] pa, double[][] ga, double lr) {
                if (m == null) {
                    m = new double[ga.length][];
                    v = new double[ga.length][];
                    for (int k = 0; k < ga.length; k++) {
                        m[k] = new double[ga[k].length];
                        v[k] = new double[ga[k].length];
                    }
                }
                t++;
                double c1 = 1 - Math.pow(beta1, t);
                double c2 = 1 - Math.pow(beta2, t);
                double decay = 1 - lr * weightDecay;
                for (int k = 0; k < ga.length; k++) {
                    double[] p = pa[k];
                    double[] d = ga[k];
                    double[] mk = m[k];
                    double[] vk = v[k];
                    for (int j = 0; j < p.length; j++) {
                        mk[j] = beta1 * mk[j] + (1 - beta1) * d[j];
                        vk[j] = beta2 * vk[j] + (1 - beta2) * d[j] * d[j];
                        if (weightDecay > 0) {
                            p[j] *= decay;
                        }
                        p[j] -= lr * (mk[j] / c1) / (Math.sqrt(vk[j] / c2) + eps);
                    }
                }
            }

            @Override
            public String describe() {
                return weightDecay > 0 ? "adamw(beta1=" + beta1 + ", beta2=" + beta2 + ", weight_decay=" + weightDecay + ")"
                        : "adam(beta1=" + beta1 + ", beta2=" + beta2 + ")";
            }
        };
    }

    /** @throws IllegalArgumentException naming the known optimizers when {@code name} is not one */
    public static void check(String name) {
        parse(name);
    }

    static Optimizer parse(String name) {
        return switch (name) {
            case "sgd" -> sgd(0);
            case "momentum" -> sgd(0.9);
            case "adam" -> adam(0.9, 0.999, 1e-8);
            case "adamw" -> adamW(0.9, 0.999, 1e-8, 0.01);
            default -> throw new IllegalArgumentException("unknown optimizer '" + name + "' (sgd, momentum, adam, adamw)");
        };
    }

    private static double[][] params(Network net) {
        double[][] out = new double[2 * net.layers()][];
        for (int l = 0; l < net.layers(); l++) {
            out[2 * l] = net.weights(l).data();
            out[2 * l + 1] = net.bias(l);
        }
        return out;
    }
}
