package org.privadapt.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What about a dataset its holder declares public, so that it may leave the party without differential privacy:
 * <ul>
 *   <li>{@code size}: the number of records n (DP-SGD derives its sampling rate and step count from it);</li>
 *   <li>{@code classes}: the class set (names and number K; a model has one output per class);</li>
 *   <li>{@code schema}: the feature layout (the dimension d, one-hot levels, a vocabulary), when the loader derived it
 *       from the rows (one-hot levels and vocabularies read from the data, an SVMlight dimension taken from the largest
 *       index seen); a layout fixed by the file's header or format is not read from the rows.</li>
 * </ul>
 * Each is null when not declared, else a short statement of who declared it and why (e.g. "suite registry:
 * published benchmark"). None of them may be read from a protected party's rows and released otherwise: private
 * methods refuse the silent path (docs/privacy/neighbouring-relations.md).
 */
public record PublicFacts(String size, String classes, String schema, boolean schemaFromRows) {
    public static final PublicFacts NONE = new PublicFacts(null, null, null, false);

    /** The facts a user names on the command line ({@code size,classes,schema}), declared by {@code who}. */
    public static PublicFacts parse(List<String> names, String who) {
        String size = null, classes = null, schema = null;
        for (String raw : names) {
            String n = raw.trim().toLowerCase(Locale.ROOT);
            switch (n) {
                case "size" -> size = who;
                case "classes" -> classes = who;
                case "schema" -> schema = who;
                case "all" -> {
                    size = who;
                    classes = who;
                    schema = who;
                }
                case "none", "" -> { }
                default -> throw new IllegalArgumentException("unknown public fact '" + raw + "' (size, classes, schema, all, none)");
            }
        }
        return new PublicFacts(size, classes, schema, false);
    }

    public boolean sizePublic() {
        return size != null;
    }

    public boolean classesPublic() {
        return classes != null;
    }

    /** True when the layout is public: declared, or not read from the rows at all. */
    public boolean schemaPublic() {
        return schema != null || !schemaFromRows;
    }

    /** These declarations, keeping whether the loader read the layout from the rows. */
    public PublicFacts declaring(PublicFacts declared) {
        return new PublicFacts(declared.size != null ? declared.size : size, declared.classes != null ? declared.classes : classes,
                declared.schema != null ? declared.schema : schema, schemaFromRows);
    }

    /** The same facts, with the layout marked as read from the rows (by a loader). */
    public PublicFacts withSchemaFromRows() {
        return new PublicFacts(size, classes, schema, true);
    }

    /** After a data-dependent row selection the size is no longer the declared one. */
    public PublicFacts withoutSize() {
        return new PublicFacts(null, classes, schema, schemaFromRows);
    }

    /** The declared facts, for reports: e.g. ["size (suite registry: ...)"]. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        if (size != null) {
            out.add("size (" + size + ")");
        }
        if (classes != null) {
            out.add("classes (" + classes + ")");
        }
        if (schema != null) {
            out.add("schema (" + schema + ")");
        } else if (!schemaFromRows) {
            out.add("schema (fixed by the file's columns, not read from its rows)");
        }
        return out;
    }
}
