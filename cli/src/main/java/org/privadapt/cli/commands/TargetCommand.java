package org.privadapt.cli.commands;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.privadapt.cli.DataSpecs;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.PartyOptions;
import org.privadapt.cli.Runs;
import org.privadapt.cli.UsageException;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.prima.PrimaMethod;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privadapt target ...}: the target institution's own steps of the two-party flow. */
@Command(name = "target", mixinStandardHelpOptions = true,
        description = {"The target institution's steps of the two-party flow, run on its own machine with its own data "
            + "(release: PRIMA/PRISA's DP statistics of its rows; predict: the source's model on its rows; adapt: "
            + "dpot-da on the source's DPOT release, dp-uda-gmm on the source's paper-004 release)."},
        subcommands = {TargetReleaseCommand.class, TargetPredictCommand.class, TargetAdaptCommand.class})
public final class TargetCommand implements java.util.concurrent.Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        // a command group without a subcommand is a usage error: the usage goes to standard error, exit 2
        spec.commandLine().usage(spec.commandLine().getErr());
        return org.privadapt.cli.ExitCodes.USAGE;
    }

    /** Loads a party's data and applies row-local preprocessing (each row on its own: no privacy cost). */
    static Dataset prepare(DataSpecs data, String ref, DataSpecs.Role role, String preprocessing, String party) throws Exception {
        Preprocessing pre = Runs.preprocessing(preprocessing);
        if (!pre.dataDependentSteps().isEmpty()) {
            throw new UsageException("preprocessing step(s) " + pre.dataDependentSteps() + " would be fitted on the " + party
                    + "'s private rows outside the privacy accounting; use row-local steps (l1, l2, clip=B, scale=K, minmax=LO:HI, none)");
        }
        Dataset d = data.load(ref, role).requireNonEmpty().requireFinite();
        return pre.fitAndApply(d);
    }

    static PrimaMethod primaMethod(String name) {
        AdaptationMethod m;
        try {
            m = Runs.method(name);
        } catch (RuntimeException e) {
            m = null;
        }
        if (!(m instanceof PrimaMethod p)) {
            throw new UsageException("--method " + name + ": the two-party flow supports prima, prisa and the PRIMA ablations "
                    + "(prima-basic, prima-rse, prima-rse-fs, prima-basic-shrink)");
        }
        return p;
    }

    /**
     * {@code --engine stream}'s file ({@code csv:PATH} or a plain path), opened in blocks with the role's file options:
     * Parquet and Spark tables, and benchmark references (loaded whole), are usage errors.
     */
    static org.privadapt.data.io.RowChunks openStreamed(DataSpecs data, String dataRef, DataSpecs.Role role)
            throws org.privadapt.data.DataException {
        data.requireNoTextColumn("--engine stream");
        String ref = dataRef.startsWith("csv:") ? dataRef.substring("csv:".length()) : dataRef;
        if (dataRef.startsWith("parquet:") || dataRef.startsWith("table:")) {
            throw new UsageException("--data " + dataRef + ": Parquet files and Spark tables are read with --engine spark "
                    + "(with --feature-columns; docs/spark.md)");
        }
        java.nio.file.Path file = java.nio.file.Path.of(ref);
        if (!java.nio.file.Files.exists(file) && data.registry().isRef(ref)) {
            throw new UsageException("--data " + dataRef + ": --engine stream reads a file (CSV, TSV or whitespace text); a "
                    + "benchmark reference is loaded whole (--engine inprocess)");
        }
        try {
            return org.privadapt.data.io.RowChunks.open(file, file.getFileName() == null ? ref : file.getFileName().toString(),
                    data.fileOptions(role, true));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--engine stream: " + e.getMessage(), e);
        }
    }

    static String runId(PartyOptions p) {
        return p.seedOrNull() == null ? "run-" + java.util.UUID.randomUUID() : "run-seed-" + p.seedOrNull();
    }
}
