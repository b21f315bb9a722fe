package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every option of every command says what it does; group help is not a broken copy of the command list. */
class HelpTextTest {
    static void walk(CommandLine cl, List<String> missing) {
        for (CommandLine.Model.OptionSpec o : cl.getCommandSpec().options()) {
            String d = String.join(" ", o.description()).trim();
            if (d.isEmpty()) {
                missing.add(cl.getCommandSpec().qualifiedName() + " " + o.longestName());
            }
        }
        for (CommandLine sub : cl.getSubcommands().values()) {
            walk(sub, missing);
        }
    }

    @Test
    void everyOptionHasADescription() {
        List<String> missing = new ArrayList<>();
        walk(new CommandLine(new Main()), missing);
        assertThat(missing).as("options without a description").isEmpty();
    }

    @Test
    void groupHelpListsItsCommandsOnceUnderCommands() {
        for (String group : new String[] {"source", "target", "privacy"}) {
            CliHarness.Result r = CliHarness.run(group, "--help");
            assertThat(r.code()).isZero();
            String before = r.out().substring(0, r.out().indexOf("Commands:"));
            // the description does not carry its own hand-made command table (it wrapped to the left margin)
            assertThat(before.lines().filter(l -> l.matches("^  (train|release|predict|adapt|epsilon|rdp|sigma) .*")))
                    .as(group + " help").isEmpty();
        }
    }
}
