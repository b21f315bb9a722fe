package org.privadapt.sparkcli;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.engine.EngineUnavailableException;

/**
 * The SparkSession of {@code --engine spark} (issue 45 item 4): the active one if this JVM has one (a test, a notebook,
 * spark-submit's), else one made here, with
 * <ul>
 * <li>the master checked first: a master that is not a Spark master URL ({@code nonsense}, {@code local[0]}) is a
 * usage error (exit 2), a {@code spark://} master that does not answer is refused in seconds (exit 6), before the
 * data are opened and before anything is charged;</li>
 * <li>Spark's own log at WARN on standard error unless {@code --verbose} (the command's line is the one that matters),
 * and no web UI unless {@code --spark-ui}: a command that handles private rows opens no UI port by default;</li>
 * <li>on a local master, the driver bound to the loopback address (its RPC and block-manager ports are not on the
 * network), unless the configuration says otherwise.</li>
 * </ul>
 */
final class SparkSessions {
    /** Spark's master URLs: local[N] (N >= 1), local[*], local[N|*,F], local-cluster[...], spark://, yarn, k8s://. */
    private static final Pattern LOCAL = Pattern.compile("local(\\[(\\*|[1-9][0-9]*)(,(\\*|[0-9]+))?\\])?");
    private static final Pattern STANDALONE = Pattern.compile("spark://([^,/]+(,[^,/]+)*)/?");
    private static final String QUIET = "org/privadapt/sparkcli/log4j2-quiet.properties";

    private SparkSessions() {
    }

    /** The session for a command: the active or default one if any, else one made with these settings. */
    static SparkSession session(String master, boolean verbose, boolean ui) {
        if (master != null) {
            check(master, "--spark-master "); // also where a session is active: a master given is a master meant
        }
        if (SparkSession.getActiveSession().isDefined() || SparkSession.getDefaultSession().isDefined()) {
            return SparkSession.builder().getOrCreate();
        }
        SparkConf conf = new SparkConf(); // spark-submit's settings (spark.master, ...) are system properties
        String effective = master != null ? master : conf.contains("spark.master") ? conf.get("spark.master") : "local[*]";
        if (master == null) {
            check(effective, "spark.master ");
        }
        if (!verbose) {
            quiet();
        }
        SparkSession.Builder b = SparkSession.builder().appName("privadapt").master(effective);
        if (!conf.contains("spark.ui.enabled")) {
            b.config("spark.ui.enabled", Boolean.toString(ui));
        }
        if (effective.startsWith("local") && !conf.contains("spark.driver.bindAddress") && !conf.contains("spark.driver.host")) {
            b.config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1");
        }
        SparkSession spark;
        try {
            spark = b.getOrCreate();
        } catch (RuntimeException | LinkageError e) {
            throw new EngineUnavailableException("--engine spark: Spark did not start on master " + effective + ": " + firstLine(e)
                    + "; nothing was read or spent");
        }
        if (!verbose) {
            spark.sparkContext().setLogLevel("WARN");
        }
        return spark;
    }

    /**
     * Refuses a master that is not a Spark master URL (a usage error) and a standalone master none of whose
     * addresses accepts a connection within 5 s (the engine cannot run: exit 6), naming the master, not the data.
     */
    static void check(String master, String option) {
        if (LOCAL.matcher(master).matches() || master.startsWith("local-cluster[") || master.equals("yarn")
                || master.startsWith("k8s://")) {
            return;
        }
        Matcher m = STANDALONE.matcher(master);
        if (!m.matches()) {
            throw new UsageException(option + master + ": not a Spark master URL (local[N] with N >= 1, local[*], spark://HOST:PORT, "
                    + "yarn, k8s://URL)");
        }
        String why = null;
        for (String hostPort : m.group(1).split(",")) {
            int colon = hostPort.lastIndexOf(':');
            int port;
            try {
                port = colon < 0 ? 7077 : Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new UsageException(option + master + ": '" + hostPort + "' is not HOST:PORT");
            }
            String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), 5000);
                return;
            } catch (Exception e) {
                why = hostPort + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            }
        }
        throw new EngineUnavailableException("--engine spark: the Spark master " + master + " cannot be reached (" + why
                + "); nothing was read or spent");
    }

    /** Spark's log at WARN, one line per message, on standard error (also before Spark configures its own). */
    private static void quiet() {
        if (System.getProperty("log4j2.configurationFile") != null || System.getProperty("log4j.configurationFile") != null) {
            return; // the user's own configuration
        }
        try {
            java.net.URL url = SparkSessions.class.getClassLoader().getResource(QUIET);
            if (url != null) {
                org.apache.logging.log4j.core.config.Configurator.reconfigure(url.toURI());
            }
        } catch (Exception | LinkageError e) {
            // another logging backend: Spark's default level then (setLogLevel below still applies)
        }
    }

    static String firstLine(Throwable e) {
        Throwable t = e;
        while (t.getMessage() == null && t.getCause() != null) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).trim();
    }
}
