package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.privadapt.spark.SparkTestSupport.CLASSES;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.models.dp.ClassStatistics;

/**
 * Issue 45 item 1, sparse vectors stay sparse: a Spark ML vector column reaches the accumulators that take sparse
 * blocks ({@link SparseBlock}: the check pass, ncm's class sums) as compressed rows, row scalings applied to the
 * non-zeros, with the results the dense path gives the same rows; malformed vectors are refused as on the dense path.
 */
class SparkSparseBlocksTest {
    static SparkSession spark;
    static SparkTestSupport.Rows data;
    static long nonZeros;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        SplittableRandom r = new SplittableRandom(11);
        int n = 300;
        int d = 40;
        double[][] x = new double[n][d];
        String[] y = new String[n];
        for (int i = 0; i < n; i++) {
            y[i] = CLASSES.get(i % CLASSES.size());
            for (int j = 0; j < d; j++) {
                if (r.nextDouble() < 0.15) { // about 6 non-zeros a row, as a bag of words
                    x[i][j] = (1 + r.nextInt(5)) * (1 + (i % CLASSES.size()) * (j % 3));
                    nonZeros++;
                }
            }
        }
        data = new SparkTestSupport.Rows(x, y);
    }

    /** An accumulator that counts what reaches it, and refuses dense blocks: it sees which path the rows took. */
    static final class Seen implements RowAggregation.Accumulator<Seen> {
        private static final long serialVersionUID = 1L;
        long rows;
        long entries;
        long blocks;
        double sum;

        @Override
        public void add(double[] features, String label) {
            throw new AssertionError("a dense row reached an accumulator that takes sparse blocks");
        }

        @Override
        public boolean takesSparseBlocks() {
            return true;
        }

        @Override
        public void addSparseBlock(SparseBlock block, String[] labels) {
            blocks++;
            rows += block.rows();
            entries += block.storedEntries();
            for (int i = 0; i < block.rows(); i++) {
                assertThat(labels[i]).isNotNull();
                for (int k = block.start(i); k < block.end(i); k++) {
                    assertThat(block.index(k)).isBetween(0, block.dimension() - 1);
                    if (k > block.start(i)) {
                        assertThat(block.index(k)).isGreaterThan(block.index(k - 1));
                    }
                    sum += block.value(k);
                }
            }
        }

        @Override
        public void merge(Seen o) {
            rows += o.rows;
            entries += o.entries;
            blocks += o.blocks;
            sum += o.sum;
        }
    }

    @Test
    void sparseVectorsReachASparseAccumulatorAsTheirNonZeros() {
        for (int partitions : new int[] {1, 3}) {
            SparkTable table = data.vectors(spark, "sparse", partitions).withBlockMap("scale=2");
            Seen seen = RowAggregation.aggregate(table, Seen::new);
            assertThat(seen.rows).isEqualTo(data.labels().length);
            assertThat(seen.entries).as("the non-zeros only").isEqualTo(nonZeros);
            assertThat(seen.blocks).as("one block per partition (300 rows)").isEqualTo(partitions);
            double dense = 0;
            for (double[] x : data.rows()) {
                for (double v : x) {
                    dense += 2 * v;
                }
            }
            assertThat(seen.sum).as("scaled by the block map").isCloseTo(dense, org.assertj.core.data.Offset.offset(1e-9 * dense));
            // many rows: blocks of at most BLOCK_ROWS rows
            Seen small = RowAggregation.aggregate(table, Seen::new, 7);
            assertThat(small.blocks).isGreaterThanOrEqualTo((long) Math.ceil(300.0 / 7));
            assertThat(small.rows).isEqualTo(300);
        }
    }

    /** Which path a block took: its rows counted as sparse or dense. */
    static final class Paths implements RowAggregation.Accumulator<Paths> {
        private static final long serialVersionUID = 1L;
        long sparse;
        long dense;

        @Override
        public void add(double[] features, String label) {
            dense++;
        }

        @Override
        public boolean takesSparseBlocks() {
            return true;
        }

        @Override
        public void addSparseBlock(SparseBlock block, String[] labels) {
            sparse += block.rows();
        }

        @Override
        public void merge(Paths o) {
            sparse += o.sparse;
            dense += o.dense;
        }
    }

    /** Blocks mostly non-zero (a dense vector column, dense-valued sparse vectors) go to the dense kernels. */
    @Test
    void mostlyNonZeroBlocksTakeTheDenseKernels() {
        Paths sparse = RowAggregation.aggregate(data.vectors(spark, "sparse", 2), Paths::new);
        assertThat(sparse.sparse).isEqualTo(300);
        assertThat(sparse.dense).isZero();
        Paths denseStored = RowAggregation.aggregate(data.vectors(spark, "dense", 2), Paths::new);
        assertThat(denseStored.sparse).as("dense vectors of mostly zeros: held by their non-zeros").isEqualTo(300);
        SparkTestSupport.Rows full = SparkTestSupport.generate(120, 8, 5);
        for (String kind : new String[] {"dense", "sparse"}) {
            Paths filled = RowAggregation.aggregate(full.vectors(spark, kind, 2), Paths::new);
            assertThat(filled.dense).as(kind + " vectors with every entry non-zero").isEqualTo(120);
        }
    }

    /** ncm's class sums (the sparse path) equal the dense path's on the same rows, under a row scaling, per partitioning. */
    @Test
    void ncmsClassSumsFromSparseBlocksEqualTheDenseOnes() {
        for (int partitions : new int[] {1, 3}) {
            ClassStatistics dense = SparkClassStatistics.ncmExact(data.vectors(spark, "array", partitions).withBlockMap("l2,scale=3"), CLASSES);
            ClassStatistics sparse = SparkClassStatistics.ncmExact(data.vectors(spark, "sparse", partitions).withBlockMap("l2,scale=3"), CLASSES);
            ClassStatistics denseVectors = SparkClassStatistics.ncmExact(data.vectors(spark, "dense", partitions), CLASSES);
            ClassStatistics plainArrays = SparkClassStatistics.ncmExact(data.vectors(spark, "array", partitions), CLASSES);
            assertThat(sparse.counts()).isEqualTo(dense.counts());
            assertRelativelyClose(sparse.sums().data(), dense.sums().data(), 1e-13, partitions + " partitions: sparse vs dense sums");
            assertRelativelyClose(denseVectors.sums().data(), plainArrays.sums().data(), 1e-13, "dense vectors (held by their non-zeros)");
            assertThat(sparse.moment()).isNull();
            // lda's statistics (clipped rows, the second moment by pairs of non-zeros)
            ClassStatistics ldaDense = SparkClassStatistics.ldaExact(data.vectors(spark, "array", partitions).withBlockMap("l2,scale=3"), CLASSES, 2.0);
            ClassStatistics ldaSparse = SparkClassStatistics.ldaExact(data.vectors(spark, "sparse", partitions).withBlockMap("l2,scale=3"), CLASSES, 2.0);
            assertThat(ldaSparse.counts()).isEqualTo(ldaDense.counts());
            assertRelativelyClose(ldaSparse.sums().data(), ldaDense.sums().data(), 1e-13, partitions + " partitions: lda sums");
            assertRelativelyClose(ldaSparse.moment().data(), ldaDense.moment().data(), 1e-12, partitions + " partitions: lda moment");
        }
        // the labels-only pass (labels outside the classes) reads sparse blocks too
        assertThat(SparkPrimaTrain.outsideClasses(data.vectors(spark, "sparse", 2), List.of("a", "b"))).isEqualTo(100);
    }

    /** A network's predictions of sparse blocks (at the non-zeros' cost) count as the dense path's. */
    @Test
    void aNetworksPredictionsFromSparseBlocksCountAsTheDenseOnes() {
        for (int hidden : new int[] {0, 5}) {
            org.privadapt.models.nn.Network net = org.privadapt.models.nn.Network.create(data.rows()[0].length,
                    hidden == 0 ? new int[] {} : new int[] {hidden}, org.privadapt.models.nn.Activation.RELU, CLASSES, 3 + hidden);
            long[] dense = SparkEvaluation.correct(data.vectors(spark, "array", 2).withBlockMap("l2"), net);
            long[] sparse = SparkEvaluation.correct(data.vectors(spark, "sparse", 2).withBlockMap("l2"), net);
            assertThat(sparse).as(hidden + " hidden units").containsExactly(dense);
            assertThat(dense[1]).isEqualTo(300);
            assertThat(dense[0]).as("a non-trivial count").isBetween(1L, 299L);
        }
    }

    /** map-prototypes from sums over sparse blocks (no row densified) refines as from the dense rows, centred or not. */
    @Test
    void theRefinementFromSparseBlocksEqualsTheDenseOne() {
        int d = data.rows()[0].length;
        org.privadapt.models.nn.Network net = org.privadapt.models.nn.Network.create(d, new int[] {}, org.privadapt.models.nn.Activation.RELU,
                CLASSES, 17);
        SparkTable dense = data.vectors(spark, "array", 2).withBlockMap("l2,scale=6");
        SparkTable sparse = data.vectors(spark, "sparse", 2).withBlockMap("l2,scale=6");
        double[] relevance = {10, 10, 10};
        for (boolean centre : new boolean[] {false, true}) {
            org.privadapt.models.uda.MapPrototypeSums.Refined a = org.privadapt.models.uda.MapPrototypeSums.refine(net,
                    st -> SparkRowSums.sum(dense, st), centre, relevance, 2.0, 2);
            org.privadapt.models.uda.MapPrototypeSums.Refined b = org.privadapt.models.uda.MapPrototypeSums.refine(net,
                    st -> SparkRowSums.sum(sparse, st), centre, relevance, 2.0, 2);
            assertThat(b.beta()).isCloseTo(a.beta(), org.assertj.core.data.Offset.offset(1e-9 * Math.abs(a.beta())));
            assertRelativelyClose(b.model().weights(0).data(), a.model().weights(0).data(), 1e-9, "refined weights, centre " + centre);
            assertRelativelyClose(b.model().bias(0), a.model().bias(0), 1e-9, "refined bias, centre " + centre);
        }
    }

    /**
     * DP-SGD from a sparse vector column: the cache holds the non-zeros, a batch is made dense when gathered (one job per
     * step, and a window's fetch), and the run equals the one from the same rows dense on the same seeded noise.
     */
    @Test
    void dpSgdCachesASparseColumnByItsNonZerosAndTrainsAsFromTheDenseRows() {
        org.privadapt.methods.core.MethodConfig c = new org.privadapt.methods.core.MethodConfig("lr", 4, 1, java.util.Map.of("learner",
                "dp-sgd", "epochs", "2", "batch", "40", "lr", "0.1", "clip", "0.5", "physical-batch", "16"));
        int n = data.rows().length;
        org.privadapt.methods.core.PrivateLearners.Plan p = org.privadapt.methods.core.PrivateLearners.plan(c, n, data.rows()[0].length, 3,
                2.0, 1e-5, org.privadapt.privacy.NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
        SparkTable dense = SparkPreprocessing.apply(data.vectors(spark, "array", 3), "l2,scale=3");
        SparkTable sparse = data.vectors(spark, "sparse", 3).withBlockMap("l2,scale=3");
        org.privadapt.models.nn.Network a = SparkDpSgd.train(p, dense, CLASSES, org.privadapt.privacy.noise.NoiseSource.seeded(6));
        org.privadapt.models.nn.Network b = SparkDpSgd.train(p, sparse, CLASSES, org.privadapt.privacy.noise.NoiseSource.seeded(6));
        assertRelativelyClose(b.weights(0).data(), a.weights(0).data(), 1e-12, "dp-sgd weights, sparse vs dense cache");
        assertRelativelyClose(b.bias(0), a.bias(0), 1e-12, "dp-sgd bias, sparse vs dense cache");
        try (SparkDpSgd.Cached cs = SparkDpSgd.cache(sparse, CLASSES, org.apache.spark.storage.StorageLevel.MEMORY_ONLY());
             SparkDpSgd.Cached cd = SparkDpSgd.cache(dense, CLASSES, org.apache.spark.storage.StorageLevel.MEMORY_ONLY())) {
            long stored = cs.blocks().map(k -> (long) k.values().length).reduce(Long::sum);
            assertThat(stored).as("the sparse cache holds the non-zeros").isEqualTo(nonZeros);
            assertThat(cs.blocks().map(k -> k.rowMajor() == null).reduce((x, y) -> x && y)).isTrue();
            int[] wanted = {0, 5, 17, 150, 201, n - 1};
            GatheredBatches.Fetched fs = GatheredBatches.fetch(cs, wanted);
            GatheredBatches.Fetched fd = GatheredBatches.fetch(cd, wanted);
            assertThat(fs.codes()).containsExactly(fd.codes());
            assertRelativelyClose(fs.rowMajor(), fd.rowMajor(), 1e-15, "a window's rows fetched from the sparse cache");
        }
        // a NaN in a sparse row is refused in the caching pass, as from dense rows
        double[] bad = new double[data.rows()[0].length];
        bad[3] = Double.NaN;
        SparkTable withNan = data.plus(bad, "a").vectors(spark, "sparse", 2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SparkDpSgd.cache(withNan, CLASSES,
                org.apache.spark.storage.StorageLevel.MEMORY_ONLY())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-finite");
    }

    /** PRIMA's target moments (rows clipped per block of a random partition) from sparse blocks equal the dense rows'. */
    @Test
    void primasMomentsFromSparseBlocksEqualTheDenseOnes() {
        int d = data.rows()[0].length;
        org.privadapt.methods.prima.PrimaConfig cfg = org.privadapt.methods.prima.PrimaConfig.prima(
                org.privadapt.methods.prima.PrimaConfig.Adaptation.CORAL);
        org.privadapt.methods.prima.Partition part = org.privadapt.methods.prima.Partition.random(d, 4, 3);
        double[] bounds = cfg.blockBounds(part);
        SparkTable dense = data.vectors(spark, "array", 2).withBlockMap("l2,scale=40");
        SparkTable sparse = data.vectors(spark, "sparse", 2).withBlockMap("l2,scale=40");
        org.privadapt.methods.prima.SecondMomentRelease.ExactMoments a = SparkPrima.checkedMomentSource(dense, cfg, 7).moments(part, bounds);
        org.privadapt.methods.prima.SecondMomentRelease.ExactMoments b = SparkPrima.checkedMomentSource(sparse, cfg, 7).moments(part, bounds);
        assertThat(b.count()).isEqualTo(a.count());
        assertRelativelyClose(b.sums(), a.sums(), 1e-12, "PRIMA sums, sparse vs dense");
        for (int k = 0; k < a.grams().size(); k++) {
            assertRelativelyClose(b.grams().get(k).data(), a.grams().get(k).data(), 1e-12, "PRIMA block " + k + " Gram, sparse vs dense");
        }
    }

    /** DPOT's projection of a sparse vector column (clipped, times M, by the non-zeros) equals the dense rows'. */
    @Test
    void dpotProjectsASparseColumnAsTheDenseRows() {
        int d = data.rows()[0].length;
        org.privadapt.math.DenseMatrix m = org.privadapt.methods.dpot.JlProjection.draw(d, 5,
                org.privadapt.privacy.noise.NoiseSource.seeded(3)).matrix();
        SparkTable dense = SparkPreprocessing.apply(data.vectors(spark, "array", 3), "l2,scale=4");
        SparkTable sparse = data.vectors(spark, "sparse", 3).withBlockMap("l2,scale=4");
        for (double clip : new double[] {Double.NaN, 2.5}) {
            SparkDpot.Projected a = SparkDpot.project(dense, CLASSES, m, clip, data.rows().length);
            SparkDpot.Projected b = SparkDpot.project(sparse, CLASSES, m, clip, data.rows().length);
            assertThat(b.codes()).containsExactly(a.codes());
            assertRelativelyClose(b.rows().data(), a.rows().data(), 1e-12, "DPOT's projection, clip " + clip);
        }
    }

    /** A null vector, another size, indices out of range or not increasing, a NaN: refused by the check on both paths. */
    @Test
    void malformedVectorsAreRefusedAsOnTheDensePath() {
        StructType vector = DataTypes.createStructType(List.of(
                DataTypes.createStructField("type", DataTypes.ByteType, false),
                DataTypes.createStructField("size", DataTypes.IntegerType, true),
                DataTypes.createStructField("indices", DataTypes.createArrayType(DataTypes.IntegerType, false), true),
                DataTypes.createStructField("values", DataTypes.createArrayType(DataTypes.DoubleType, false), true)));
        StructType schema = DataTypes.createStructType(List.of(DataTypes.createStructField("x", vector, true),
                DataTypes.createStructField("y", DataTypes.StringType, true)));
        List<Row> good = List.of(sparse(5, new int[] {0, 3}, new double[] {1, 2}), sparse(5, new int[] {}, new double[] {}),
                RowFactory.create((byte) 1, null, null, seq(new double[] {0, 1, 0, 0, 4})));
        List<Row> bad = new ArrayList<>(List.of(sparse(6, new int[] {0}, new double[] {1}), sparse(5, new int[] {0, 5}, new double[] {1, 1}),
                sparse(5, new int[] {3, 1}, new double[] {1, 1}), sparse(5, new int[] {2, 2}, new double[] {1, 1}),
                sparse(5, new int[] {1}, new double[] {Double.NaN}), RowFactory.create((byte) 1, null, null, seq(new double[] {1, 2}))));
        bad.add(null);
        for (Row b : bad) {
            List<Row> rows = new ArrayList<>();
            for (Row g : good) {
                rows.add(RowFactory.create(g, "a"));
            }
            rows.add(RowFactory.create(b, "b"));
            SparkTable table = SparkVectors.table(spark.createDataFrame(rows, schema), "x", 5, "y");
            SparkTable.Check sparse = table.check();
            assertThat(sparse.rows()).isEqualTo(4);
            assertThat(sparse.nonFiniteRows()).as("sparse path, " + b).isEqualTo(1);
            // the dense path (a row map: the accumulator gets dense rows) reads the same row as missing
            SparkTable.Check dense = checkDense(table);
            assertThat(dense.nonFiniteRows()).as("dense path, " + b).isEqualTo(1);
        }
    }

    private static SparkTable.Check checkDense(SparkTable table) {
        SparkTable.Counter c = RowAggregation.aggregate(table, x -> x, () -> new SparkTable.Counter(true));
        return c.result();
    }

    private static Row sparse(int size, int[] idx, double[] val) {
        List<Integer> i = new ArrayList<>();
        for (int v : idx) {
            i.add(v);
        }
        return RowFactory.create((byte) 0, size, scala.jdk.javaapi.CollectionConverters.asScala(i).toSeq(), seq(val));
    }

    private static Object seq(double[] v) {
        return scala.collection.immutable.ArraySeq.unsafeWrapArray(v.clone());
    }
}
