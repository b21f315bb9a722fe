#!/usr/bin/env python3
"""Issue 44: a probe of one more refinement idea, whitened map-prototypes (not in privadapt; see docs/results/defaults.md).

Why it was tried. One map-prototypes update (MapPrototypes.java) moves a class direction u towards the mean of the
target rows the received model assigns to that class. Where the target has no cluster structure along the classes
(a Gaussian cloud), that mean is proportional to Sigma u, Sigma the target rows' covariance: one step of power
iteration, which pulls every direction towards the target's largest-variance axis whatever the classes are. That is
the drift that costs Amazon (sentiment is not the reviews' main axis of variation). Running the same update on
whitened rows (z = S^-1/2 x, S the Ledoit-Wolf-shrunk covariance of the target's centred unit rows; the source
direction carried over as S^1/2 u) removes that pull: for a Gaussian cloud the assigned mean is then proportional
to the direction itself.

What it measures. The received model is nearest-class-mean on the source's unit rows (class sums), optionally with
Gaussian noise of sd NOISE added to each sum entry as a stand-in for a DP release (not calibrated to any epsilon: a
probe of the mechanism, not a private result). On the target's own rows (their labels used only to score): none
(cosine to the sums), centre (target-mean centring), mp (one map-prototypes update, relevance n_t / K, logits of sd 3,
as privadapt's defaults), wmp (the same update on whitened rows). Prints one line per pair and noise level.

Usage: python3 docs/results/scripts/whitened-map-prototypes-probe.py [DATA]   (DATA default ../shared/data; needs numpy
and scipy; about 7 minutes on one core)
"""
import os
import sys

import numpy as np
import scipy.io as sio

DATA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../../shared/data")


def svmlight(path, d=5000):
    ys, rows = [], []
    for line in open(path):
        parts = line.split()
        ys.append(int(parts[0]) > 0)
        rows.append([(int(a), float(b)) for a, b in (t.split(":") for t in parts[1:])])
    x = np.zeros((len(rows), d))
    for i, r in enumerate(rows):
        for j, v in r:
            x[i, j] = v
    return x, np.array(ys, dtype=int)


def unit(x):
    n = np.linalg.norm(x, axis=1, keepdims=True)
    n[n == 0] = 1
    return x / n


def softmax(a):
    a = a - a.max(1, keepdims=True)
    e = np.exp(a)
    return e / e.sum(1, keepdims=True)


def map_update(z, u, relevance, logit_sd=3.0):
    """One relevance-MAP update of the unit columns of u on the rows z (cosines, soft assignments)."""
    zu, un = unit(z), u / np.linalg.norm(u, axis=0)
    c = zu @ un
    g = softmax(logit_sd / c.std() * c)
    nk = g.sum(0)
    mean = (zu.T @ g) / nk
    a = nk / (nk + relevance)
    m = a * mean + (1 - a) * un
    return m / np.linalg.norm(m, axis=0)


def ledoit_wolf(x):
    n, d = x.shape
    s = x.T @ x / n
    mu = np.trace(s) / d
    d2 = ((s - mu * np.eye(d)) ** 2).sum()
    q = np.einsum("ij,ij->i", x @ s, x)
    b2 = min(((np.linalg.norm(x, axis=1) ** 4) - 2 * q + (s ** 2).sum()).sum() / n ** 2, d2)
    return (b2 / d2) * mu * np.eye(d) + (1 - b2 / d2) * s


def probe(xs, ys, xt, yt, k, noise, seed=0):
    xs, xt = unit(xs), unit(xt)
    u = np.stack([xs[ys == c].sum(0) for c in range(k)], 1)
    u = u + noise * np.random.default_rng(seed).standard_normal(u.shape)
    un = u / np.linalg.norm(u, axis=0)
    xc = xt - xt.mean(0)
    out = {"none": ((xt @ u).argmax(1) == yt).mean(), "centre": ((unit(xc) @ un).argmax(1) == yt).mean()}
    out["mp"] = ((xc @ map_update(xc, u, len(yt) / k)).argmax(1) == yt).mean()
    w, v = np.linalg.eigh(ledoit_wolf(unit(xc)))
    w = np.maximum(w, 1e-12)
    z = unit(xc) @ (v @ np.diag(w ** -0.5) @ v.T)
    uz = (v @ np.diag(w ** 0.5) @ v.T) @ un
    out["wmp"] = ((z @ map_update(z, uz, len(yt) / k)).argmax(1) == yt).mean()
    return out


def main():
    amazon = os.path.join(DATA, "amazon-reviews/svmlight-5000/%s_train.svmlight")
    office = os.path.join(DATA, "office-caltech10")
    pairs = []
    for s, t in [("books", "dvd"), ("electronics", "kitchen"), ("kitchen", "books")]:
        pairs.append(("amazon " + s[0].upper() + "->" + t[0].upper(), svmlight(amazon % s), svmlight(amazon % t), 2))

    def googlenet(d):
        m = sio.loadmat(os.path.join(office, "googlenet1024/%s.mat" % d))
        return m["fts"].astype(float), m["labels"].ravel().astype(int) - 1

    def decaf(d):
        m = sio.loadmat(os.path.join(office, "decaf6/%s_decaf.mat" % d))
        return m["fea"].astype(float), m["gnd"].ravel().astype(int) - 1

    for s, t in [("amazon", "dslr"), ("dslr", "webcam"), ("webcam", "amazon"), ("dslr", "amazon")]:
        pairs.append(("googlenet " + s[0].upper() + "->" + t[0].upper(), googlenet(s), googlenet(t), 10))
    for s, t in [("dslr", "Webcam"), ("Webcam", "dslr")]:
        pairs.append(("decaf " + s[0].upper() + "->" + t[0].upper(), decaf(s), decaf(t), 10))
    print("| pair | noise sd | none | centre | mp | wmp |")
    print("|---|---:|---:|---:|---:|---:|")
    for noise in (0.0, 3.0):
        for name, (xs, ys), (xt, yt), k in pairs:
            r = probe(xs, ys, xt, yt, k, noise)
            print("| %s | %g | %s |" % (name, noise, " | ".join("%.1f" % (100 * r[m]) for m in ("none", "centre", "mp", "wmp"))),
                  flush=True)


if __name__ == "__main__":
    main()
