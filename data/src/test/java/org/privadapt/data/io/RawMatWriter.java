package org.privadapt.data.io;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * A minimal MAT Level-5 writer for tests (little-endian), byte by byte: dense matrices (double, single, or double
 * stored as miUINT8 as MATLAB writes small integers), sparse double matrices, and cell arrays of any of these
 * (nested), each variable written uncompressed (miMATRIX, as the 2006 landmine file) or, after {@link #compressed()},
 * as a zlib miCOMPRESSED element. The reader is exercised on what the mfl library reads but cannot write (sparse,
 * cells of sparse, miUINT8 storage of doubles, uncompressed cells).
 */
final class RawMatWriter {
    static final int MI_INT8 = 1;
    static final int MI_UINT8 = 2;
    static final int MI_INT32 = 5;
    static final int MI_UINT32 = 6;
    static final int MI_SINGLE = 7;
    static final int MI_DOUBLE = 9;
    static final int MI_MATRIX = 14;
    static final int MI_COMPRESSED = 15;
    static final int MX_CELL = 1;
    static final int MX_SPARSE = 5;
    static final int MX_DOUBLE = 6;
    static final int MX_SINGLE = 7;

    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private boolean compress;

    /** Variables added from now on are written as miCOMPRESSED elements. */
    RawMatWriter compressed() {
        compress = true;
        return this;
    }

    RawMatWriter dense(String name, double[][] rows) {
        return add(dense(name, rows, MI_DOUBLE));
    }

    /** A double variable whose values are stored as miUINT8 (0..255), as MATLAB saves labels. */
    RawMatWriter uint8Stored(String name, double[][] rows) {
        return add(dense(name, rows, MI_UINT8));
    }

    RawMatWriter sparse(String name, double[][] rows) {
        return add(sparse(name, rows, null));
    }

    /** A cell array of {@code r x c} elements, given in MATLAB's column-major order (from the static builders). */
    RawMatWriter cell(String name, int r, int c, byte[]... elements) {
        return add(cellElement(name, r, c, elements));
    }

    /** A raw element (tag and data) as a variable, for hand-made corruption. */
    RawMatWriter raw(byte[] element) {
        return add(element);
    }

    // ------------------------------------------------------------------ elements (for cells: unnamed)

    /** A dense matrix element stored as {@code miType} (MI_DOUBLE, MI_SINGLE with class single, MI_UINT8 with class double). */
    static byte[] dense(String name, double[][] rows, int miType) {
        int r = rows.length;
        int c = r == 0 ? 0 : rows[0].length;
        double[] colMajor = new double[r * c];
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < c; j++) {
                colMajor[i + j * r] = rows[i][j];
            }
        }
        ByteArrayOutputStream m = new ByteArrayOutputStream();
        element(m, MI_UINT32, ints(miType == MI_SINGLE ? MX_SINGLE : MX_DOUBLE, 0));
        element(m, MI_INT32, ints(r, c));
        element(m, MI_INT8, name.getBytes(StandardCharsets.US_ASCII));
        byte[] data;
        if (miType == MI_UINT8) {
            data = new byte[colMajor.length];
            for (int k = 0; k < data.length; k++) {
                data[k] = (byte) (int) colMajor[k];
            }
        } else if (miType == MI_SINGLE) {
            ByteBuffer b = ByteBuffer.allocate(4 * colMajor.length).order(ByteOrder.LITTLE_ENDIAN);
            for (double x : colMajor) {
                b.putFloat((float) x);
            }
            data = b.array();
        } else {
            data = doubles(colMajor);
        }
        element(m, miType, data);
        return tagged(MI_MATRIX, m.toByteArray());
    }

    /** A column vector of doubles stored as miUINT8, unnamed (a cell's labels). */
    static byte[] uint8Column(double... v) {
        double[][] rows = new double[v.length][];
        for (int i = 0; i < v.length; i++) {
            rows[i] = new double[] {v[i]};
        }
        return dense("", rows, MI_UINT8);
    }

    static byte[] denseCell(double[][] rows) {
        return dense("", rows, MI_DOUBLE);
    }

    static byte[] singleColumn(double... v) {
        double[][] rows = new double[v.length][];
        for (int i = 0; i < v.length; i++) {
            rows[i] = new double[] {v[i]};
        }
        return dense("", rows, MI_SINGLE);
    }

    static byte[] sparseCell(double[][] rows) {
        return sparse("", rows, null);
    }

    /**
     * A sparse double matrix element; {@code rawIr}, when given, replaces the row indices (for corrupt files: out of
     * range or repeated).
     */
    static byte[] sparse(String name, double[][] rows, int[] rawIr) {
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
        if (rawIr != null) {
            System.arraycopy(rawIr, 0, ir, 0, rawIr.length);
        }
        ByteArrayOutputStream m = new ByteArrayOutputStream();
        element(m, MI_UINT32, ints(MX_SPARSE, Math.max(1, nz)));
        element(m, MI_INT32, ints(r, c));
        element(m, MI_INT8, name.getBytes(StandardCharsets.US_ASCII));
        element(m, MI_INT32, ints(Arrays.copyOf(ir, Math.max(1, nz))));
        element(m, MI_INT32, ints(jc));
        element(m, MI_DOUBLE, doubles(Arrays.copyOf(pr, Math.max(1, nz))));
        return tagged(MI_MATRIX, m.toByteArray());
    }

    /** A cell array element; nested cells are unnamed {@code cellElement("", ...)}. */
    static byte[] cellElement(String name, int r, int c, byte[]... elements) {
        if (elements.length != r * c) {
            throw new IllegalArgumentException(elements.length + " elements for a " + r + "x" + c + " cell");
        }
        ByteArrayOutputStream m = new ByteArrayOutputStream();
        element(m, MI_UINT32, ints(MX_CELL, 0));
        element(m, MI_INT32, ints(r, c));
        element(m, MI_INT8, name.getBytes(StandardCharsets.US_ASCII));
        for (byte[] e : elements) {
            m.writeBytes(e);
        }
        return tagged(MI_MATRIX, m.toByteArray());
    }

    // ------------------------------------------------------------------ the file

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

    private RawMatWriter add(byte[] matrixElement) {
        if (!compress) {
            body.writeBytes(matrixElement);
            return this;
        }
        Deflater z = new Deflater();
        z.setInput(matrixElement);
        z.finish();
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (!z.finished()) {
            packed.write(buf, 0, z.deflate(buf));
        }
        z.end();
        byte[] data = packed.toByteArray();
        ByteBuffer tag = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        tag.putInt(MI_COMPRESSED).putInt(data.length);
        body.writeBytes(tag.array());
        body.writeBytes(data); // compressed elements are not padded
        return this;
    }

    private static byte[] tagged(int type, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        element(out, type, data);
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

    static byte[] ints(int... v) {
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
