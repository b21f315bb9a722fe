package org.privadapt.data.io;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A minimal, uncompressed MAT Level-5 writer for tests (little-endian): dense double matrices and sparse double
 * matrices, so that the reader is exercised on the uncompressed path and on MATLAB's sparse class, which the
 * mfl library reads but cannot write.
 */
final class RawMatWriter {
    private static final int MI_INT8 = 1;
    private static final int MI_INT32 = 5;
    private static final int MI_UINT32 = 6;
    private static final int MI_DOUBLE = 9;
    private static final int MI_MATRIX = 14;
    private static final int MX_SPARSE = 5;
    private static final int MX_DOUBLE = 6;

    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    RawMatWriter dense(String name, double[][] rows) {
        int r = rows.length;
        int c = r == 0 ? 0 : rows[0].length;
        double[] colMajor = new double[r * c];
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < c; j++) {
                colMajor[i + j * r] = rows[i][j];
            }
        }
        ByteArrayOutputStream m = new ByteArrayOutputStream();
        element(m, MI_UINT32, ints(MX_DOUBLE, 0));
        element(m, MI_INT32, ints(r, c));
        element(m, MI_INT8, name.getBytes(StandardCharsets.US_ASCII));
        element(m, MI_DOUBLE, doubles(colMajor));
        element(body, MI_MATRIX, m.toByteArray());
        return this;
    }

    RawMatWriter sparse(String name, double[][] rows) {
        int r = rows.length;
        int c = rows[0].length;
        int[] ir = new int[r * c];
        int[] jc = new int[c + 1];
        double[] pr = new double[r * c];
        int nz = 0;
        for (int j = 0; j < c; j++) {
            for (int i = 0; i < r; i++) {
                if (rows[i][j] != 0) {
                    ir[nz] = i;
                    pr[nz++] = rows[i][j];
                }
            }
            jc[j + 1] = nz;
        }
        ByteArrayOutputStream m = new ByteArrayOutputStream();
        element(m, MI_UINT32, ints(MX_SPARSE, Math.max(1, nz)));
        element(m, MI_INT32, ints(r, c));
        element(m, MI_INT8, name.getBytes(StandardCharsets.US_ASCII));
        element(m, MI_INT32, ints(Arrays.copyOf(ir, Math.max(1, nz))));
        element(m, MI_INT32, ints(jc));
        element(m, MI_DOUBLE, doubles(Arrays.copyOf(pr, Math.max(1, nz))));
        element(body, MI_MATRIX, m.toByteArray());
        return this;
    }

    byte[] bytes() {
        byte[] header = new byte[128];
        Arrays.fill(header, 0, 116, (byte) ' ');
        byte[] text = "MATLAB 5.0 MAT-file, written by privadapt tests".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, header, 0, text.length);
        header[124] = 0x00;
        header[125] = 0x01;
        header[126] = 'I';
        header[127] = 'M';
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header);
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    private static void element(ByteArrayOutputStream out, int type, byte[] data) {
        ByteBuffer tag = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        tag.putInt(type).putInt(data.length);
        out.writeBytes(tag.array());
        out.writeBytes(data);
        int pad = (8 - data.length % 8) % 8;
        out.writeBytes(new byte[pad]);
    }

    private static byte[] ints(int... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int x : v) {
            b.putInt(x);
        }
        return b.array();
    }

    private static byte[] doubles(double[] v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : v) {
            b.putDouble(x);
        }
        return b.array();
    }
}
