package org.privadapt.models.nn;

/** The learning rate at step t (0-based) of T. Schedules depend only on the step, never on data. */
@FunctionalInterface
public interface LearningRateSchedule {
    double at(long step, long totalSteps);

    static LearningRateSchedule constant(double lr) {
        return (t, total) -> lr;
    }

    /** lr multiplied by {@code factor} every {@code every} steps. */
    static LearningRateSchedule step(double lr, long every, double factor) {
        return (t, total) -> lr * Math.pow(factor, (double) (t / every));
    }

    /** Cosine decay from lr to 0 over the run. */
    static LearningRateSchedule cosine(double lr) {
        return (t, total) -> 0.5 * lr * (1 + Math.cos(Math.PI * t / Math.max(1, total)));
    }

    /** lr * decay^t. */
    static LearningRateSchedule exponential(double lr, double decay) {
        return (t, total) -> lr * Math.pow(decay, t);
    }

    /** @throws IllegalArgumentException naming the known schedules when {@code spec} is not one of them, well formed */
    public static void check(String spec) {
        LearningRateSchedule s;
        try {
            s = parse(spec, 1.0);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(e instanceof IllegalArgumentException && e.getMessage() != null
                    && e.getMessage().startsWith("unknown schedule") ? e.getMessage()
                    : "malformed schedule '" + spec + "' (constant, cosine, step:EVERY:FACTOR, exp:DECAY)");
        }
        double first = s.at(0, 1);
        if (!(first > 0) || Double.isInfinite(first)) {
            throw new IllegalArgumentException("schedule '" + spec + "' gives a learning rate that is not a positive number");
        }
    }

    /** Parses {@code constant}, {@code cosine}, {@code step:EVERY:FACTOR}, {@code exp:DECAY}. */
    static LearningRateSchedule parse(String spec, double lr) {
        String[] p = spec.split(":");
        return switch (p[0]) {
            case "constant" -> constant(lr);
            case "cosine" -> cosine(lr);
            case "step" -> step(lr, Long.parseLong(p[1]), Double.parseDouble(p[2]));
            case "exp" -> exponential(lr, Double.parseDouble(p[1]));
            default -> throw new IllegalArgumentException("unknown schedule '" + spec + "' (constant, cosine, step:EVERY:FACTOR, exp:DECAY)");
        };
    }
}
