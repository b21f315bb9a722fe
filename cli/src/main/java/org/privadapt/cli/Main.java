package org.privadapt.cli;

import java.io.PrintWriter;
import org.privadapt.cli.commands.AuditCommand;
import org.privadapt.cli.commands.BenchCommand;
import org.privadapt.cli.commands.DatasetsCommand;
import org.privadapt.cli.commands.DemoCommand;
import org.privadapt.cli.commands.InspectCommand;
import org.privadapt.cli.commands.PrivacyCommand;
import org.privadapt.cli.commands.RunCommand;
import org.privadapt.cli.commands.SourceCommand;
import org.privadapt.cli.commands.TargetCommand;
import org.privadapt.data.DataException;
import org.privadapt.privacy.BudgetExceededException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the {@code privadapt} command. Errors the user can fix end the process with one line on
 * standard error and a distinct exit code ({@link ExitCodes}); only internal errors print a stack trace.
 */
@Command(name = "privadapt", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Differentially private domain adaptation between two parties.",
        subcommands = {DemoCommand.class, RunCommand.class, DatasetsCommand.class, PrivacyCommand.class,
            BenchCommand.class, TargetCommand.class, SourceCommand.class, InspectCommand.class, AuditCommand.class,
            org.privadapt.cli.commands.KeysCommand.class,
            CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 ok, 1 internal error, 2 usage error, 3 data error, 4 privacy budget refused, 5 invalid artifact or ledger, 6 engine not available (--engine spark without Spark: use spark-submit), 7 text encoder mismatch (a release or model made with another --param encoder)."})
public final class Main implements java.util.concurrent.Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Set by {@code --redact-messages} for this command line; closed when it ends (issue 46 item 4). */
    private org.privadapt.data.PrivateText.Scope redaction;

    @CommandLine.Option(names = "--redact-messages", scope = CommandLine.ScopeType.INHERIT, description = "Keep values, "
            + "labels, row numbers and counts read from the data out of error messages (for logs others read); the same as "
            + "PRIVADAPT_MESSAGES=redact or -Dprivadapt.messages=redact (docs/privacy/messages.md).")
    void redactMessages(boolean on) {
        if (on && redaction == null) {
            redaction = org.privadapt.data.PrivateText.redact(true);
        }
    }

    @Override
    public Integer call() {
        // a command group without a subcommand is a usage error: the usage goes to standard error, exit 2
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    public static void main(String[] args) {
        Interrupts.install();
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** An error message on one line (issue 33: every refusal is one line). */
    static String oneLine(String m) {
        return m == null ? "" : m.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /** Runs the command line with the given streams and returns the exit code (used by tests). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        Main main = new Main();
        CommandLine cl = new CommandLine(main);
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> refuse(ex, commandLine.getErr()));
        cl.setParameterExceptionHandler((ex, a) -> {
            // one line (issue 33): the error, any suggestion, and where the usage is
            CommandLine c = ex.getCommandLine();
            String hint = "";
            if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
                hint = " (did you mean " + String.join(" or ", u.getSuggestions().stream().limit(3).toList()) + "?)";
            }
            String msg = ex.getMessage() == null ? "invalid arguments" : ex.getMessage().strip().replace(System.lineSeparator(), " ")
                    .replace("\n", " ");
            c.getErr().println("privadapt: " + msg + hint + "; see '" + c.getCommandSpec().qualifiedName() + " --help'");
            return ExitCodes.USAGE;
        });
        int code;
        try {
            code = cl.execute(args);
        } finally {
            if (main.redaction != null) {
                main.redaction.close();
            }
        }
        out.flush();
        err.flush();
        return code;
    }

    /**
     * The one line on standard error and the exit code of a command that ended with {@code e} (README "Exit codes"): a
     * missing input file is a data error (3) whichever reader found it missing.
     */
    static int refuse(Throwable e, PrintWriter w) {
        if (e instanceof DataException) {
            w.println("privadapt: data error: " + oneLine(e.getMessage()));
            return ExitCodes.DATA;
        }
        if (e instanceof BudgetExceededException) {
            w.println("privadapt: privacy budget refused: " + oneLine(e.getMessage()));
            return ExitCodes.BUDGET;
        }
        if ((e instanceof org.privadapt.methods.artifacts.ArtifactException
                || e instanceof org.privadapt.privacy.ledger.BudgetLedger.LedgerException) && InputFiles.noSuchFile(e)) {
            // a missing input file is a data error (README "Exit codes"), as a missing data file is
            w.println("privadapt: data error: " + oneLine(e.getMessage()));
            return ExitCodes.DATA;
        }
        if (e instanceof org.privadapt.methods.artifacts.ArtifactException) {
            w.println("privadapt: invalid artifact: " + oneLine(e.getMessage()));
            return ExitCodes.ARTIFACT;
        }
        if (e instanceof org.privadapt.privacy.ledger.BudgetLedger.LedgerException) {
            w.println("privadapt: invalid ledger: " + oneLine(e.getMessage()));
            return ExitCodes.ARTIFACT;
        }
        if (e instanceof org.privadapt.models.dp.NonFiniteGradientException) {
            w.println("privadapt: training failed: " + oneLine(e.getMessage()));
            return ExitCodes.USAGE;
        }
        if (e instanceof org.privadapt.cli.engine.EngineUnavailableException) {
            w.println("privadapt: " + oneLine(e.getMessage()));
            return ExitCodes.ENGINE;
        }
        if (e instanceof org.privadapt.methods.gmmuda.EncoderMismatchException) {
            w.println("privadapt: text encoder mismatch: " + oneLine(e.getMessage()));
            return ExitCodes.ENCODER;
        }
        if (e instanceof UsageException || e instanceof CommandLine.ParameterException) {
            w.println("privadapt: " + oneLine(e.getMessage()));
            return ExitCodes.USAGE;
        }
        w.println("privadapt: internal error: " + e);
        e.printStackTrace(w);
        return ExitCodes.INTERNAL;
    }
}
