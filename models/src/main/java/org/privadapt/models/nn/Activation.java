package org.privadapt.models.nn;

/** Element-wise activations; {@link #derivative} takes the pre-activation z and the activation a = f(z). */
public enum Activation {
    IDENTITY, RELU, LEAKY_RELU, TANH, SIGMOID, ELU;

    public double apply(double z) {
        return switch (this) {
            case IDENTITY -> z;
            case RELU -> z > 0 ? z : 0.0;
            case LEAKY_RELU -> z > 0 ? z : 0.01 * z;
            case TANH -> Math.tanh(z);
            case SIGMOID -> 1.0 / (1.0 + Math.exp(-z));
            case ELU -> z > 0 ? z : Math.expm1(z);
        };
    }

    public double derivative(double z, double a) {
        return switch (this) {
            case IDENTITY -> 1.0;
            case RELU -> z > 0 ? 1.0 : 0.0;
            case LEAKY_RELU -> z > 0 ? 1.0 : 0.01;
            case TANH -> 1.0 - a * a;
            case SIGMOID -> a * (1.0 - a);
            case ELU -> z > 0 ? 1.0 : a + 1.0;
        };
    }

    public static Activation parse(String s) {
        return switch (s.toLowerCase(java.util.Locale.ROOT).replace('-', '_')) {
            case "identity", "linear" -> IDENTITY;
            case "relu" -> RELU;
            case "leaky_relu", "leakyrelu" -> LEAKY_RELU;
            case "tanh" -> TANH;
            case "sigmoid" -> SIGMOID;
            case "elu" -> ELU;
            default -> throw new IllegalArgumentException("unknown activation '" + s + "' (relu, leaky-relu, tanh, sigmoid, elu, identity)");
        };
    }
}
