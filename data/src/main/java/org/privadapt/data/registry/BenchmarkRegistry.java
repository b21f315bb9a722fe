package org.privadapt.data.registry;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.PrivateText;
import org.privadapt.data.io.MatLoader;
import org.privadapt.data.io.SvmLightLoader;
import org.privadapt.data.io.TableEncoder;
import org.privadapt.data.io.TextTable;
import org.privadapt.data.text.BagOfWords;

/**
 * The benchmark suites of {@code shared/data}, by name. Each suite knows its files (relative to the data root),
 * its domains and splits, the shapes MANIFEST.md documents, and how to read them. Domains of the UCI sets are
 * defined by an attribute, following paper 003 where it says how (see {@link Suite#notes()}); the attribute that
 * defines the domain is removed from the features. Loaded datasets are cached per registry.
 */
public final class BenchmarkRegistry {
    private final Path root;
    private final Map<String, Suite> suites = new LinkedHashMap<>();
    private final Map<String, SuiteReader> readers = new LinkedHashMap<>();
    private final Map<String, Map<String, Dataset>> cache = new ConcurrentHashMap<>();
    /** How the text suites encode their texts (set before the first load; the bag of words by default). */
    private volatile org.privadapt.data.text.TextEncoding textEncoding = org.privadapt.data.text.TextEncoding.BOW;

    /** Reads every (domain, split) of one suite at once, so that they share one encoding schema. */
    @FunctionalInterface
    interface SuiteReader {
        Map<String, Dataset> readAll(Path root) throws DataException;
    }

    private BenchmarkRegistry(Path root) {
        this.root = root;
    }

    /** The standard suites under {@code root}. */
    public static BenchmarkRegistry standard(Path root) {
        BenchmarkRegistry r = new BenchmarkRegistry(root);
        r.addOfficeCaltech();
        r.addOfficeDeep("office-caltech10-decaf", "Office-Caltech10, DeCAF6 (AlexNet fc6, 4096-dim), dslr and webcam, 10 classes",
                new String[][] {{"dslr", "D", "office-caltech10/decaf6/dslr_decaf.mat", "157"},
                    {"webcam", "W", "office-caltech10/decaf6/Webcam_decaf.mat", "295"}}, 4096, "fea", "gnd",
                "non-negative post-ReLU activations, not normalised (the features of papers 000 and 002); amazon and caltech "
                + "could not be obtained, so D->W and W->D only; the files' semi-supervised split indices are not used: "
                + "the unsupervised protocol uses all target rows both for adaptation and for evaluation");
        r.addOfficeDeep("office-caltech10-googlenet", "Office-Caltech10, GoogLeNet pool features (1024-dim), amazon, dslr and "
                + "webcam, 10 classes", new String[][] {{"amazon", "A", "office-caltech10/googlenet1024/amazon.mat", "958"},
                    {"dslr", "D", "office-caltech10/googlenet1024/dslr.mat", "157"},
                    {"webcam", "W", "office-caltech10/googlenet1024/webcam.mat", "295"}}, 1024, "fts", "labels",
                "non-negative float32 features of an ImageNet-pretrained network; caltech could not be obtained, so the 6 "
                + "tasks among A, D, W; all target rows for adaptation and evaluation");
        r.addMnistUsps();
        r.addAmazon();
        r.addAdult();
        r.addGerman();
        r.addAccent();
        r.addGasTurbine();
        r.addWind();
        r.addChestXray();
        r.add(IuChestXrayUda.suite(), root1 -> IuChestXrayUda.readAll(root1, r.textEncoding));
        r.add(ReutersDa.suite(), ReutersDa::readAll);
        r.add(NewsgroupsDa.suite(), NewsgroupsDa::readAll);
        r.add(Mtfs3Vggm.suite(), Mtfs3Vggm::readAll);
        r.add(Landmine.suite(), Landmine::readAll);
        r.add(SpamTaskB.suite(), SpamTaskB::readAll);
        return r;
    }

    public Path root() {
        return root;
    }

    /**
     * Encodes the text suites' texts with {@code encoding} (paper 004's {@code --param encoder=minilm}) instead of the
     * hashed bag of words. Only suites read after the call are affected.
     */
    public BenchmarkRegistry withTextEncoding(org.privadapt.data.text.TextEncoding encoding) {
        this.textEncoding = java.util.Objects.requireNonNull(encoding, "encoding");
        return this;
    }

    public org.privadapt.data.text.TextEncoding textEncoding() {
        return textEncoding;
    }

    public List<Suite> suites() {
        return List.copyOf(suites.values());
    }

    public Suite suite(String name) throws DataException {
        Suite s = suites.get(name);
        if (s == null) {
            throw new DataException((String) null, null, "unknown suite '" + name + "'; known suites: " + String.join(", ", suites.keySet()));
        }
        return s;
    }

    /** Whether every file of the suite exists under the data root. */
    public boolean present(Suite s) {
        return missingFiles(s).isEmpty();
    }

    public List<Path> missingFiles(Suite s) {
        List<Path> missing = new ArrayList<>();
        for (String f : s.files()) {
            Path p = root.resolve(f);
            if (!Files.isRegularFile(p)) {
                missing.add(p);
            }
        }
        return missing;
    }

    /**
     * One domain's split of a suite.
     *
     * @throws DataException for an unknown suite, domain or split, or when the files are missing or bad
     */
    public Dataset load(String suiteName, String domain, String split) throws DataException {
        Suite s = suite(suiteName);
        Suite.Domain d = s.domain(domain).orElseThrow(() -> new DataException((String) null, null, "suite '" + suiteName
                + "' has no domain '" + domain + "'; domains: " + s.domains().stream().map(Suite.Domain::name).toList()));
        String sp = split == null ? d.splits().get(0).name() : split;
        if (d.split(sp).isEmpty()) {
            throw new DataException((String) null, null, "domain '" + d.name() + "' of '" + suiteName + "' has no split '" + sp
                    + "'; splits: " + d.splits().stream().map(Suite.Split::name).toList());
        }
        List<Path> missing = missingFiles(s);
        if (!missing.isEmpty()) {
            throw new DataException(missing.get(0), null, "no such file (suite '" + suiteName + "' needs "
                    + s.files().size() + " files under the data root " + root + "; set --data-root or " + DataRoot.ENV + ")");
        }
        String cacheKey = suiteName + "|" + textEncoding.name();
        Map<String, Dataset> all = cache.get(cacheKey);
        if (all == null) {
            synchronized (this) {
                all = cache.get(cacheKey);
                if (all == null) {
                    all = readers.get(suiteName).readAll(root);
                    cache.put(cacheKey, all);
                }
            }
        }
        return all.get(key(d.name(), sp)).withPublicFacts(declaredPublic(s));
    }

    /**
     * What a benchmark suite declares public about each of its domains (PublicFacts): the number of rows and the
     * label set, both published with the benchmark. Its feature layout is declared only where it is fixed by the
     * published files' format; where a loader reads it from the rows (one-hot levels, a vocabulary) it is not, and
     * private methods refuse it unless the user declares it.
     */
    static org.privadapt.data.PublicFacts declaredPublic(Suite s) {
        String why = "suite registry: published with the " + s.name() + " benchmark";
        return new org.privadapt.data.PublicFacts(why, why, null, false);
    }

    /**
     * Resolves a reference {@code suite/domain[:split]} (e.g. {@code office-caltech10/amazon},
     * {@code amazon-reviews/books:test}); returns null if {@code ref} does not name a known suite.
     */
    public Dataset loadRef(String ref) throws DataException {
        int slash = ref.indexOf('/');
        if (slash <= 0 || !suites.containsKey(ref.substring(0, slash))) {
            return null;
        }
        String rest = ref.substring(slash + 1);
        int colon = rest.indexOf(':');
        String domain = colon < 0 ? rest : rest.substring(0, colon);
        String split = colon < 0 ? null : rest.substring(colon + 1);
        return load(ref.substring(0, slash), domain, split);
    }

    /** True when {@code ref} starts with a known suite name followed by '/'. */
    public boolean isRef(String ref) {
        int slash = ref.indexOf('/');
        return slash > 0 && suites.containsKey(ref.substring(0, slash));
    }

    private static String key(String domain, String split) {
        return domain + ":" + split;
    }

    private void add(Suite s, SuiteReader reader) {
        suites.put(s.name(), s);
        readers.put(s.name(), reader);
    }

    // ------------------------------------------------------------------ suites

    private static final List<String> OFFICE_CLASSES = List.of("back_pack", "bike", "calculator", "headphones", "keyboard",
            "laptop_computer", "monitor", "mouse", "mug", "projector");

    private void addOfficeCaltech() {
        String[][] doms = {{"amazon", "A", "amazon_SURF_L10.mat", "958"}, {"caltech", "C", "Caltech10_SURF_L10.mat", "1123"},
            {"dslr", "D", "dslr_SURF_L10.mat", "157"}, {"webcam", "W", "webcam_SURF_L10.mat", "295"}};
        List<Suite.Domain> domains = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (String[] d : doms) {
            domains.add(new Suite.Domain(d[0], d[1], List.of(new Suite.Split("all", Integer.parseInt(d[3]), 800))));
            files.add("office-caltech10/surf/" + d[2]);
        }
        add(new Suite("office-caltech10", "Office-Caltech10, SURF bag-of-visual-words (800-dim), 10 classes", "classification",
                domains, files, "raw visual-word counts (uint8); labels 1..10 named after the image ids; the standard "
                + "unsupervised protocol uses all target rows both for adaptation and for evaluation",
                "all", "all", "all"), root -> {
                    Map<String, Dataset> m = new LinkedHashMap<>();
                    for (int i = 0; i < doms.length; i++) {
                        Dataset ds = MatLoader.load(root.resolve(files.get(i)), "office-caltech10/" + doms[i][0],
                                new MatLoader.Options("fts", "labels"));
                        ClassLabels y = ds.classLabels();
                        if (y.numClasses() != 10) {
                            throw new DataException(files.get(i), null, "expected 10 classes, found " + PrivateText.count(y.numClasses()));
                        }
                        m.put(key(doms[i][0], "all"), ds.withLabels(y.renamed(OFFICE_CLASSES), "classes named"));
                    }
                    return m;
                });
    }

    /** Deep-feature versions of Office-Caltech10: one MAT file per domain, the same 10 classes as SURF. */
    private void addOfficeDeep(String name, String title, String[][] doms, int dim, String xVar, String yVar, String notes) {
        List<Suite.Domain> domains = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (String[] d : doms) {
            domains.add(new Suite.Domain(d[0], d[1], List.of(new Suite.Split("all", Integer.parseInt(d[3]), dim))));
            files.add(d[2]);
        }
        add(new Suite(name, title, "classification", domains, files, notes, "all", "all", "all"), root -> {
            Map<String, Dataset> m = new LinkedHashMap<>();
            for (String[] d : doms) {
                Dataset ds = MatLoader.load(root.resolve(d[2]), name + "/" + d[0], new MatLoader.Options(xVar, yVar));
                ClassLabels y = ds.classLabels();
                if (y.numClasses() != 10 || ds.dimension() != dim || ds.size() != Integer.parseInt(d[3])) {
                    throw new DataException(d[2], null, "expected " + d[3] + " x " + dim + " with 10 classes, found "
                            + PrivateText.count(ds.size()) + " x " + ds.dimension() + " with " + PrivateText.count(y.numClasses()));
                }
                m.put(key(d[0], "all"), ds.withLabels(y.renamed(OFFICE_CLASSES), "classes named"));
            }
            return m;
        });
    }

    /** JDA's MNIST_vs_USPS.mat: both domains in one file, d x n (256 pixels of 16 x 16 images), labels 1..10. */
    private void addMnistUsps() {
        String file = "mnist-usps/MNIST_vs_USPS.mat";
        List<Suite.Domain> domains = List.of(
                new Suite.Domain("mnist", "M", List.of(new Suite.Split("all", 2000, 256))),
                new Suite.Domain("usps", "U", List.of(new Suite.Split("all", 1800, 256))));
        add(new Suite("mnist-usps", "MNIST (2000) and USPS (1800) digits as 16 x 16 images in [0, 1] (JDA's pair), 10 classes",
                "classification", domains, List.of(file), "one MAT file with X_src/Y_src (MNIST) and X_tar/Y_tar (USPS), "
                + "one column per image; labels 1..10 as in the file; M->U and U->M with all target rows for adaptation "
                + "and evaluation (the JDA protocol)", "all", "all", "all"), root -> {
                    Map<String, Dataset> m = new LinkedHashMap<>();
                    String[][] parts = {{"mnist", "X_src", "Y_src", "2000"}, {"usps", "X_tar", "Y_tar", "1800"}};
                    for (String[] d : parts) {
                        Dataset ds = MatLoader.load(root.resolve(file), "mnist-usps/" + d[0], new MatLoader.Options(d[1], d[2]));
                        ClassLabels y = ds.classLabels();
                        if (y.numClasses() != 10 || ds.dimension() != 256 || ds.size() != Integer.parseInt(d[3])) {
                            throw new DataException(file, "variable '" + d[1] + "'", "expected " + d[3]
                                    + " images of 256 pixels in 10 classes, found " + PrivateText.count(ds.size()) + " x " + ds.dimension()
                                    + " in " + PrivateText.count(y.numClasses()));
                        }
                        m.put(key(d[0], "all"), ds);
                    }
                    return m;
                });
    }

    private void addAmazon() {
        String[][] doms = {{"books", "B", "4465"}, {"dvd", "D", "3586"}, {"electronics", "E", "5681"}, {"kitchen", "K", "5945"}};
        List<Suite.Domain> domains = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (String[] d : doms) {
            domains.add(new Suite.Domain(d[0], d[1], List.of(new Suite.Split("train", 2000, 5000),
                    new Suite.Split("test", Integer.parseInt(d[2]), 5000))));
            files.add("amazon-reviews/svmlight-5000/" + d[0] + "_train.svmlight");
            files.add("amazon-reviews/svmlight-5000/" + d[0] + "_test.svmlight");
        }
        add(new Suite("amazon-reviews", "Amazon reviews (Blitzer et al. 2007), 5000 unigram/bigram counts, binary sentiment",
                "classification", domains, files, "SVMlight, 0-based indices; train = 2000 labelled reviews, test = the "
                + "domain's larger pool with labels (DANN protocol: source train, target train unlabelled, target test)",
                "train", "train", "test"), root -> {
                    Map<String, Dataset> m = new LinkedHashMap<>();
                    for (String[] d : doms) {
                        for (String split : new String[] {"train", "test"}) {
                            Path f = root.resolve("amazon-reviews/svmlight-5000/" + d[0] + "_" + split + ".svmlight");
                            Dataset ds = SvmLightLoader.load(f, "amazon-reviews/" + d[0] + ":" + split,
                                    new SvmLightLoader.Options(SvmLightLoader.IndexBase.ZERO, 5000));
                            ClassLabels y = ds.classLabels().recodeTo(List.of("-1", "1"));
                            m.put(key(d[0], split), ds.withLabels(y.renamed(List.of("negative", "positive")), "classes named"));
                        }
                    }
                    return m;
                });
    }

    private static final List<String> ADULT_COLUMNS = List.of("age", "workclass", "fnlwgt", "education", "education-num",
            "marital-status", "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week",
            "native-country", "income");

    private void addAdult() {
        List<Suite.Domain> domains = List.of(
                new Suite.Domain("male", "M", List.of(new Suite.Split("train", -1, -1), new Suite.Split("test", -1, -1))),
                new Suite.Domain("female", "F", List.of(new Suite.Split("train", -1, -1), new Suite.Split("test", -1, -1))));
        add(new Suite("adult", "UCI Adult (census income), income >50K, domains by sex (paper 003)", "classification",
                domains, List.of("adult/adult.data", "adult/adult.test"), "adult.data = train (32561 rows), adult.test = test "
                + "(16281 rows); rows with '?' dropped; 8 categorical attributes one-hot encoded on the union of both files; "
                + "'sex' defines the domain and is removed", "train", "train", "test"), root -> {
                    TextTable.Format f = new TextTable.Format(TextTable.Separator.COMMA, null, false, ADULT_COLUMNS, "|");
                    TextTable train = TextTable.read(root.resolve("adult/adult.data"), f);
                    TextTable test = TextTable.read(root.resolve("adult/adult.test"), f);
                    int sex = ADULT_COLUMNS.indexOf("sex");
                    List<TextTable> parts = new ArrayList<>();
                    List<String> names = new ArrayList<>();
                    for (String[] dom : new String[][] {{"male", "Male"}, {"female", "Female"}}) {
                        for (Object[] sp : new Object[][] {{"train", train}, {"test", test}}) {
                            parts.add(((TextTable) sp[1]).filter(r -> r[sex].equals(dom[1])));
                            names.add(dom[0] + ":" + sp[0]);
                        }
                    }
                    TableEncoder.Options o = TableEncoder.Options.labelled("income")
                            .withCategorical(TableEncoder.Categorical.ONE_HOT).withMissing(TableEncoder.Missing.DROP_ROW)
                            .withDrop(List.of("sex")).withLabelSuffix(".");
                    return byName("adult", names, TableEncoder.encode(parts, prefixed("adult/", names), o, "UCI comma text"));
                });
    }

    private void addGerman() {
        addGerman("south-german-credit", "laufkont", "status of checking account (4 classes)",
                "label 'laufkont' (checking account status, codes 1..4), as paper 003 states it");
        addGerman("south-german-credit-risk", "kredit", "credit risk good/bad (the usual label; a variant of paper 003's)",
                "label 'kredit' (credit risk: 1 good, 0 bad), the data set's usual target, as a variant of paper 003's stated "
                + "label; 'laufkont' kept as a feature");
    }

    private void addGerman(String suite, String label, String what, String labelNote) {
        List<Suite.Domain> domains = List.of(
                new Suite.Domain("short-residence", "S", List.of(new Suite.Split("all", 438, 19))),
                new Suite.Domain("long-residence", "L", List.of(new Suite.Split("all", 562, 19))));
        add(new Suite(suite, "South German Credit (UCI), " + what + ", domains by "
                + "present residence (paper 003)", "classification", domains, List.of("south-german-credit/SouthGermanCredit.asc"),
                labelNote + "; domain from 'wohnzeit' (present residence): codes 1-2 "
                + "(< 4 years) vs 3-4 (>= 4 years), our reading of the paper's 'at least three years' on this coding; "
                + "'wohnzeit' removed; the other 19 coded columns kept as numbers", "all", "all", "all"), root -> {
                    TextTable t = TextTable.read(root.resolve("south-german-credit/SouthGermanCredit.asc"), TextTable.Format.whitespace(true));
                    int w = t.columnIndex("wohnzeit");
                    List<TextTable> parts = List.of(t.filter(r -> r[w].equals("1") || r[w].equals("2")),
                            t.filter(r -> r[w].equals("3") || r[w].equals("4")));
                    List<String> names = List.of("short-residence:all", "long-residence:all");
                    TableEncoder.Options o = TableEncoder.Options.labelled(label).withDrop(List.of("wohnzeit"));
                    return byName(suite, names, TableEncoder.encode(parts, prefixed(suite + "/", names), o, "whitespace text"));
                });
    }

    private void addAccent() {
        List<Suite.Domain> domains = List.of(
                new Suite.Domain("us-uk", "S", List.of(new Suite.Split("all", 210, 12))),
                new Suite.Domain("other", "T", List.of(new Suite.Split("all", 119, 12))));
        add(new Suite("speaker-accent", "Speaker Accent Recognition (UCI), 12 MFCC features, 6 accents; source US/UK, "
                + "target the rest (paper 003)", "classification", domains, List.of("speaker-accent/accent-mfcc-data-1.csv"),
                "label 'language' (ES FR GE IT UK US); the two domains have disjoint classes, as in paper 003's setup, "
                + "which makes sense only for supervised adaptation", "all", "all", "all"), root -> {
                    TextTable t = TextTable.read(root.resolve("speaker-accent/accent-mfcc-data-1.csv"), TextTable.Format.csv());
                    int lang = t.columnIndex("language");
                    Set<String> src = Set.of("US", "UK");
                    List<TextTable> parts = List.of(t.filter(r -> src.contains(r[lang])), t.filter(r -> !src.contains(r[lang])));
                    List<String> names = List.of("us-uk:all", "other:all");
                    return byName("speaker-accent", names, TableEncoder.encode(parts, prefixed("speaker-accent/", names),
                            TableEncoder.Options.labelled("language"), "CSV"));
                });
    }

    private void addGasTurbine() {
        int[][] years = {{2011, 7411}, {2012, 7628}, {2013, 7152}, {2014, 7158}, {2015, 7384}};
        List<Suite.Domain> domains = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (int[] y : years) {
            domains.add(new Suite.Domain(Integer.toString(y[0]), Integer.toString(y[0] % 100),
                    List.of(new Suite.Split("all", y[1], 9))));
            files.add("gas-turbine-emissions/gt_" + y[0] + ".csv");
        }
        add(new Suite("gas-turbine-emissions", "Gas turbine CO and NOx emissions (UCI), 9 sensor features, target NOX, "
                + "domains by year", "regression", domains, files, "regression target NOX (CO dropped); years are the "
                + "natural domains", "all", "all", "all"), root -> {
                    List<TextTable> parts = new ArrayList<>();
                    List<String> names = new ArrayList<>();
                    for (int[] y : years) {
                        parts.add(TextTable.read(root.resolve("gas-turbine-emissions/gt_" + y[0] + ".csv"), TextTable.Format.csv()));
                        names.add(y[0] + ":all");
                    }
                    TableEncoder.Options o = TableEncoder.Options.labelled("NOX").withLabelKind(TableEncoder.LabelKind.REAL)
                            .withDrop(List.of("CO"));
                    return byName("gas-turbine-emissions", names, TableEncoder.encode(parts, prefixed("gas-turbine-emissions/", names), o, "CSV"));
                });
    }

    private static final List<String> WIND_COLUMNS = List.of("yr", "mo", "dy", "RPT", "VAL", "ROS", "KIL", "SHA", "BIR", "DUB",
            "CLA", "MUL", "CLO", "BEL", "MAL");

    private void addWind() {
        List<Suite.Domain> domains = List.of(
                new Suite.Domain("other-months", "S", List.of(new Suite.Split("all", 6016, 11))),
                new Suite.Domain("january", "T", List.of(new Suite.Split("all", 558, 11))));
        add(new Suite("irish-wind", "Irish daily wind speeds 1961-1978 (Haslett & Raftery), predict station MAL from the "
                + "other 11; domains by month (paper 003)", "regression", domains, List.of("irish-wind/wind.data"),
                "fixed-width (i2,2i3,12f6.2); target = MAL (knots), features = the 11 other stations; target domain = "
                + "January (18 x 31 = 558 days, the size paper 003 reports), source = the other months (6016 days)",
                "all", "all", "all"), root -> {
                    int[] widths = new int[15];
                    widths[0] = 2;
                    widths[1] = 3;
                    widths[2] = 3;
                    for (int k = 3; k < 15; k++) {
                        widths[k] = 6;
                    }
                    TextTable t = TextTable.read(root.resolve("irish-wind/wind.data"),
                            new TextTable.Format(TextTable.Separator.FIXED_WIDTH, widths, false, WIND_COLUMNS, null));
                    int mo = t.columnIndex("mo");
                    List<TextTable> parts = List.of(t.filter(r -> !r[mo].equals("1")), t.filter(r -> r[mo].equals("1")));
                    List<String> names = List.of("other-months:all", "january:all");
                    TableEncoder.Options o = TableEncoder.Options.labelled("MAL").withLabelKind(TableEncoder.LabelKind.REAL)
                            .withDrop(List.of("yr", "mo", "dy"));
                    return byName("irish-wind", names, TableEncoder.encode(parts, prefixed("irish-wind/", names), o, "fixed-width text"));
                });
    }

    private void addChestXray() {
        List<Suite.Domain> domains = List.of(new Suite.Domain("reports", "R", List.of(new Suite.Split("all", 3851, -1))));
        add(new Suite("iu-chest-xray", "Indiana University chest X-ray reports (Open-i), bag of words, normal vs abnormal",
                "classification", domains, List.of("iu-chest-xray/indiana_reports.csv", "iu-chest-xray/indiana_projections.csv"),
                "text of 'findings' + 'impression' as word counts over the " + BagOfWords.DEFAULT_VOCABULARY + " most frequent "
                + "words (document frequency); label 'normal' when Problems is exactly 'normal', else 'abnormal'",
                "all", "all", "all"), root -> {
                    TextTable t = TextTable.read(root.resolve("iu-chest-xray/indiana_reports.csv"), TextTable.Format.csv());
                    int fi = t.columnIndex("findings");
                    int im = t.columnIndex("impression");
                    int pr = t.columnIndex("Problems");
                    List<String> docs = new ArrayList<>();
                    int[] y = new int[t.size()];
                    for (int r = 0; r < t.size(); r++) {
                        docs.add(t.row(r)[fi] + " " + t.row(r)[im]);
                        y[r] = t.row(r)[pr].trim().equalsIgnoreCase("normal") ? 1 : 0;
                    }
                    Dataset ds = BagOfWords.fit(docs, BagOfWords.DEFAULT_VOCABULARY).transform(docs, "iu-chest-xray/reports:all",
                            new ClassLabels(y, List.of("abnormal", "normal")), t.file(), t.hashes().get(0));
                    return Map.of(key("reports", "all"), ds);
                });
    }

    private static List<String> prefixed(String prefix, List<String> names) {
        return names.stream().map(n -> prefix + n).toList();
    }

    private static Map<String, Dataset> byName(String suite, List<String> names, List<Dataset> ds) {
        Map<String, Dataset> m = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            m.put(names.get(i), ds.get(i));
        }
        return m;
    }
}
