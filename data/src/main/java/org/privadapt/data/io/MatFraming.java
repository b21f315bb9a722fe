package org.privadapt.data.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.privadapt.data.DataException;
import org.privadapt.data.PrivateText;

/**
 * The framing of a MAT v5 file, checked before it is parsed ({@link MatLoader}): header, element sizes, zlib streams
 * and, inside every matrix (uncompressed, or once inflated), the sizes of its sub-elements and of the matrices nested
 * in cell arrays and structures, so that a truncated or corrupt file is reported with the byte offset of the broken
 * variable rather than a library stack trace.
 */
final class MatFraming {
    private static final int HEADER = 128;
    private static final int MI_MATRIX = 14;
    private static final int MI_COMPRESSED = 15;
    /** Cells of cells nest this deep at most before the walk stops (the library parses what is deeper). */
    private static final int MAX_DEPTH = 64;

    private MatFraming() {
    }

    /**
     * Checks the header, the endian indicator and every element's size, that each compressed variable inflates, and
     * that the sub-elements of every matrix fit inside it.
     *
     * @throws DataException naming the byte offset of the broken element (redacted with private values)
     */
    static void check(Path file, byte[] b) throws DataException {
        if (b.length >= 8 && b[0] == (byte) 0x89 && b[1] == 'H' && b[2] == 'D' && b[3] == 'F') {
            throw new DataException(file, "byte 0", "HDF5 (MAT v7.3) files are not supported; re-save with -v7");
        }
        String head = new String(b, 0, Math.min(b.length, 116), StandardCharsets.ISO_8859_1);
        if (head.startsWith("MATLAB 7.3")) {
            throw new DataException(file, "byte 0", "MAT v7.3 (HDF5) files are not supported; re-save with -v7");
        }
        if (b.length < HEADER || !head.startsWith("MATLAB 5.0 MAT-file")) {
            throw new DataException(file, "byte 0", b.length < HEADER
                    ? "file is " + PrivateText.count(b.length) + " bytes, too short for a MAT-file header (128 bytes)"
                    : "not a MATLAB Level-5 MAT-file (header does not start with 'MATLAB 5.0 MAT-file')");
        }
        ByteOrder order;
        if (b[126] == 'I' && b[127] == 'M') {
            order = ByteOrder.LITTLE_ENDIAN;
        } else if (b[126] == 'M' && b[127] == 'I') {
            order = ByteOrder.BIG_ENDIAN;
        } else {
            throw new DataException(file, "byte 126", "invalid endian indicator in MAT-file header");
        }
        ByteBuffer buf = ByteBuffer.wrap(b).order(order);
        int off = HEADER;
        int index = 0;
        while (off < b.length) {
            index++;
            if (b.length - off < 8) {
                throw new DataException(file, "byte " + PrivateText.row(off), "file ends inside the tag of variable #" + index + " (truncated)");
            }
            int type = buf.getInt(off);
            long size;
            if ((type >>> 16) != 0) { // small data element: size in the upper half, data within 8 bytes
                off += 8;
                continue;
            }
            size = Integer.toUnsignedLong(buf.getInt(off + 4));
            long end = off + 8L + size;
            if (end > b.length) {
                throw new DataException(file, "byte " + PrivateText.row(off), "variable #" + index + " declares " + PrivateText.count(size)
                        + " bytes but the file ends after " + PrivateText.count(b.length - off - 8) + " (truncated)");
            }
            if (type == MI_COMPRESSED) {
                byte[] inflated = inflate(file, b, off + 8, (int) size, index, off);
                int tag = off;
                int i = index;
                checkInflated(file, ByteBuffer.wrap(inflated).order(order), "compressed variable #" + i,
                        at -> new String[] {"byte " + PrivateText.row(tag), " (inflated byte " + PrivateText.row(at) + ")"});
            } else if (type == MI_MATRIX) {
                int i = index;
                checkMatrix(file, buf, off + 8, (int) end, 1, "variable #" + i, at -> new String[] {"byte " + PrivateText.row(at), ""});
            }
            off = (int) (type == MI_COMPRESSED ? end : off + 8 + ((size + 7) & ~7L));
        }
    }

    /**
     * Where a problem at a byte offset is: the DataException's position (the file's byte, or a compressed variable's
     * tag) and what the message adds (the byte within the inflated variable).
     */
    @FunctionalInterface
    private interface Where {
        String[] at(int offset);
    }

    /** The inflated bytes of a compressed variable must hold one element (a matrix) that fits in them. */
    private static void checkInflated(Path file, ByteBuffer buf, String what, Where where) throws DataException {
        int len = buf.limit();
        if (len < 8) {
            String[] w = where.at(0);
            throw new DataException(file, w[0], what + " inflates to " + PrivateText.count(len) + " bytes, too few for an element "
                    + "tag (corrupt)");
        }
        int type = buf.getInt(0);
        if ((type >>> 16) != 0) {
            return; // a small element: nothing nested
        }
        long size = Integer.toUnsignedLong(buf.getInt(4));
        if (8 + size > len) {
            String[] w = where.at(0);
            throw new DataException(file, w[0], what + " declares " + PrivateText.count(size) + " bytes but inflates to "
                    + PrivateText.count(len - 8) + " (corrupt)");
        }
        if (type == MI_MATRIX) {
            checkMatrix(file, buf, 8, (int) (8 + size), 1, what, where);
        }
    }

    /**
     * The sub-elements of a matrix (flags, dimensions, name, data; a cell's or a structure's elements, nested
     * matrices themselves) must each fit inside it.
     */
    private static void checkMatrix(Path file, ByteBuffer buf, int from, int end, int depth, String what, Where where)
            throws DataException {
        int off = from;
        int sub = 0;
        int nested = 0;
        while (off < end) {
            sub++;
            if (end - off < 8) {
                String[] w = where.at(off);
                throw new DataException(file, w[0], what + " ends inside the tag of its sub-element #" + sub + w[1] + " (corrupt)");
            }
            int type = buf.getInt(off);
            if ((type >>> 16) != 0) {
                if ((type >>> 16) > 4) {
                    String[] w = where.at(off);
                    throw new DataException(file, w[0], what + "'s sub-element #" + sub + w[1] + " is a small element of "
                            + PrivateText.count(type >>> 16) + " bytes (at most 4; corrupt)");
                }
                off += 8;
                continue;
            }
            long size = Integer.toUnsignedLong(buf.getInt(off + 4));
            if (off + 8L + size > end) {
                String[] w = where.at(off);
                throw new DataException(file, w[0], what + "'s sub-element #" + sub + w[1] + " declares " + PrivateText.count(size)
                        + " bytes but its matrix ends after " + PrivateText.count(end - off - 8L) + " (truncated or corrupt)");
            }
            if (type == MI_MATRIX) {
                nested++;
                if (depth < MAX_DEPTH) {
                    // a cell's elements and a structure's fields are matrices nested in it
                    checkMatrix(file, buf, off + 8, (int) (off + 8 + size), depth + 1, what + ", nested matrix " + nested, where);
                }
            }
            off = (int) Math.min(end, off + 8 + ((size + 7) & ~7L));
        }
    }

    /** The inflated bytes of a compressed variable, or the byte offset of its tag when its zlib stream is broken. */
    private static byte[] inflate(Path file, byte[] b, int from, int len, int index, int tagOffset) throws DataException {
        Inflater inf = new Inflater();
        try {
            inf.setInput(b, from, len);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(Math.max(64, len * 4));
            byte[] sink = new byte[1 << 16];
            while (!inf.finished()) {
                int r = inf.inflate(sink);
                if (r == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    throw new DataException(file, "byte " + PrivateText.row(tagOffset), "compressed variable #" + index
                            + " ends before its zlib stream is complete (truncated or corrupt)");
                }
                out.write(sink, 0, r);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new DataException(file, "byte " + PrivateText.row(tagOffset), "compressed variable #" + index
                    + " is corrupt (zlib: " + e.getMessage() + ")");
        } finally {
            inf.end();
        }
    }
}
