package org.privadapt.data.registry;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * Domains made of several read parts, one under the other (a 20 Newsgroups domain of four newsgroups, a landmine
 * terrain of 15 fields): the features stacked (kept sparse when any part is sparse), the given labels, and the
 * parts' files in the provenance.
 */
final class Stacking {
    private Stacking() {
    }

    /** The parts' rows in order; {@code labels} (one per stacked row) or null; {@code step} says what was stacked. */
    static Dataset rows(String domain, List<Dataset> parts, ClassLabels labels, String step) {
        int d = parts.get(0).dimension();
        for (Dataset p : parts) {
            if (p.dimension() != d) {
                throw new IllegalArgumentException("cannot stack " + p.domain() + " (" + p.dimension() + " features) under "
                        + parts.get(0).domain() + " (" + d + ")");
            }
        }
        boolean sparse = parts.stream().anyMatch(p -> p.features().isSparse());
        FeatureMatrix x = sparse ? sparseRows(parts, d) : denseRows(parts, d);
        if (labels != null && labels.size() != x.rows()) {
            throw new IllegalArgumentException(labels.size() + " labels for " + x.rows() + " stacked rows");
        }
        Set<Provenance.SourceFile> files = new LinkedHashSet<>();
        for (Dataset p : parts) {
            files.addAll(p.provenance().files());
        }
        Provenance prov = new Provenance(new ArrayList<>(files), List.of(step));
        return new Dataset(domain, x, labels, null, prov);
    }

    /** The parts' class labels one after the other, each recoded to {@code names}' coding. */
    static ClassLabels labels(List<ClassLabels> parts, List<String> names) {
        int n = parts.stream().mapToInt(ClassLabels::size).sum();
        int[] codes = new int[n];
        int k = 0;
        for (ClassLabels p : parts) {
            for (int c : p.recodeTo(names).codes()) {
                codes[k++] = c;
            }
        }
        return new ClassLabels(codes, names);
    }

    /** Every row labelled {@code code} of {@code names}. */
    static ClassLabels constant(int n, int code, List<String> names) {
        int[] codes = new int[n];
        java.util.Arrays.fill(codes, code);
        return new ClassLabels(codes, names);
    }

    private static DenseMatrix denseRows(List<Dataset> parts, int d) {
        int n = parts.stream().mapToInt(Dataset::size).sum();
        DenseMatrix x = DenseMatrix.zeros(n, d);
        double[] out = x.data();
        int r0 = 0;
        for (Dataset p : parts) {
            DenseMatrix m = p.features().toDense();
            int rows = m.rows();
            double[] in = m.data();
            for (int j = 0; j < d; j++) {
                System.arraycopy(in, j * rows, out, r0 + j * n, rows);
            }
            r0 += rows;
        }
        return x;
    }

    private static CsrMatrix sparseRows(List<Dataset> parts, int d) {
        int n = 0;
        long nnz = 0;
        List<CsrMatrix> csr = new ArrayList<>();
        for (Dataset p : parts) {
            CsrMatrix m = p.features() instanceof CsrMatrix c ? c : CsrMatrix.fromDense(p.features().toDense());
            csr.add(m);
            n += m.rows();
            nnz += m.storedEntries();
        }
        if (nnz > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many stored entries to stack: " + nnz);
        }
        int[] start = new int[n + 1];
        int[] ci = new int[(int) nnz];
        double[] v = new double[(int) nnz];
        int row = 0;
        int k = 0;
        for (CsrMatrix m : csr) {
            for (int i = 0; i < m.rows(); i++) {
                for (int p = m.rowStart(i); p < m.rowEnd(i); p++) {
                    ci[k] = m.colIndexAt(p);
                    v[k++] = m.valueAt(p);
                }
                start[++row] = k;
            }
        }
        return new CsrMatrix(n, d, start, ci, v);
    }
}
