package org.privadapt.cli.commands;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code privadapt privacy}: privacy accounting tools (subcommands). */
@Command(name = "privacy", mixinStandardHelpOptions = true,
        description = "Privacy accounting: calibrate noise, compute epsilon, inspect a party's budget ledger.")
public final class PrivacyCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
