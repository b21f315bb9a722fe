package org.privadapt.data.registry;

import java.nio.file.Path;

/**
 * Where the benchmark data lives. In order of precedence: an explicit path (the CLI's {@code --data-root}),
 * the environment variable {@code PRIVADAPT_DATA}, the system property {@code privadapt.data}, and the default
 * {@code ../shared/data} relative to the project root (system property {@code privadapt.home}, set by the
 * launcher and the build; the working directory otherwise).
 */
public final class DataRoot {
    public static final String ENV = "PRIVADAPT_DATA";
    public static final String PROPERTY = "privadapt.data";

    private DataRoot() {
    }

    public static Path resolve(Path explicit) {
        if (explicit != null) {
            return explicit.toAbsolutePath().normalize();
        }
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env).toAbsolutePath().normalize();
        }
        String prop = System.getProperty(PROPERTY);
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop).toAbsolutePath().normalize();
        }
        return projectHome().resolve("../shared/data").toAbsolutePath().normalize();
    }

    /** The project root: system property {@code privadapt.home}, else the working directory. */
    public static Path projectHome() {
        String home = System.getProperty("privadapt.home");
        return Path.of(home == null || home.isBlank() ? "." : home).toAbsolutePath().normalize();
    }
}
