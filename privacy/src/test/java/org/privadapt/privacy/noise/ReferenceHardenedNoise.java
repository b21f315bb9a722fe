package org.privadapt.privacy.noise;

/**
 * Test oracle: the hardened vector noise as it was before the bulk reader (issue 32), one {@code nextLong()} per
 * word and the whole ziggurat in one loop. The fast sampler must give the same doubles from the same words, and
 * leave the stream in the same state.
 */
final class ReferenceHardenedNoise {
    private ReferenceHardenedNoise() {
    }

    static double ziggurat(RandomBits bits) {
        while (true) {
            long u = bits.nextLong();
            int layer = (int) (u & 0xff);
            boolean negative = (u & 0x100) != 0;
            double x = ((u >>> 11) * 0x1.0p-53) * Ziggurat.layerWidth(layer);
            if (x < Ziggurat.layerWidth(layer + 1)) {
                return negative ? -x : x;
            }
            if (layer == 0) {
                double t;
                while (true) {
                    double a = -Math.log(1.0 - bits.nextDouble()) / Ziggurat.R;
                    double b = -Math.log(1.0 - bits.nextDouble());
                    if (b + b > a * a) {
                        t = Ziggurat.R + a;
                        break;
                    }
                }
                return negative ? -t : t;
            }
            double f0 = Ziggurat.layerDensity(layer);
            double y = f0 + bits.nextDouble() * (Ziggurat.layerDensity(layer + 1) - f0);
            if (y < Math.exp(-0.5 * x * x)) {
                return negative ? -x : x;
            }
        }
    }

    /** The old {@code addNoise}: chunks of CHUNK coordinates, chunk c from the c-th split, filled in order. */
    static void addNoise(RandomBits bits, double[] v, double sigma) {
        double half = 0.5 * sigma;
        if (v.length <= GaussianVectorSampler.CHUNK) {
            for (int i = 0; i < v.length; i++) {
                v[i] += half * (ziggurat(bits) + ziggurat(bits) + ziggurat(bits) + ziggurat(bits));
            }
            return;
        }
        int chunks = (v.length + GaussianVectorSampler.CHUNK - 1) / GaussianVectorSampler.CHUNK;
        RandomBits[] streams = new RandomBits[chunks];
        for (int c = 0; c < chunks; c++) {
            streams[c] = bits.split();
        }
        for (int c = 0; c < chunks; c++) {
            int from = c * GaussianVectorSampler.CHUNK;
            int to = Math.min(v.length, from + GaussianVectorSampler.CHUNK);
            RandomBits s = streams[c];
            for (int i = from; i < to; i++) {
                v[i] += half * (ziggurat(s) + ziggurat(s) + ziggurat(s) + ziggurat(s));
            }
        }
    }
}
