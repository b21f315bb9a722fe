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
 * The framing of a MAT v5 file, checked before it is parsed ({@link MatLoader}): header, element sizes, zlib streams,
 * so that a truncated or corrupt file is reported with the byte offset of the broken variable rather than a library
 * stack trace.
 */
final class MatFraming {
    private static final int HEADER = 128;
    private static final int MI_COMPRESSED = 15;

    private MatFraming() {
    }

    /**
     * Checks the header, the endian indicator and every element's size, and that each compressed variable inflates.
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
                checkInflates(file, b, off + 8, (int) size, index, off);
            }
            off = (int) (type == MI_COMPRESSED ? end : off + 8 + ((size + 7) & ~7L));
        }
    }

    private static void checkInflates(Path file, byte[] b, int from, int len, int index, int tagOffset) throws DataException {
        Inflater inf = new Inflater();
        try {
            inf.setInput(b, from, len);
            byte[] sink = new byte[1 << 16];
            while (!inf.finished()) {
                int r = inf.inflate(sink);
                if (r == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    throw new DataException(file, "byte " + PrivateText.row(tagOffset), "compressed variable #" + index
                            + " ends before its zlib stream is complete (truncated or corrupt)");
                }
            }
        } catch (DataFormatException e) {
            throw new DataException(file, "byte " + PrivateText.row(tagOffset), "compressed variable #" + index
                    + " is corrupt (zlib: " + e.getMessage() + ")");
        } finally {
            inf.end();
        }
    }
}
