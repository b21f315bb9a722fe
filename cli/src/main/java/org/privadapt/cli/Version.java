package org.privadapt.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** The tool's version, from the build. */
public final class Version implements CommandLine.IVersionProvider {
    public static String get() {
        try (InputStream in = Version.class.getResourceAsStream("/privadapt-version.properties")) {
            if (in == null) {
                return "dev";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "dev");
        } catch (IOException e) {
            return "dev";
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"privadapt " + get(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")",
                "linear algebra: " + org.privadapt.math.LinAlg.backend().description()};
    }
}
