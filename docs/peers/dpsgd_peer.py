#!/usr/bin/env python3
"""Peer figures for `privadapt bench noise` and `privadapt bench dpsgd` (issue 32). Run by hand; not part of CI.

    python3 docs/peers/dpsgd_peer.py [--threads N] [--repeats R] [--skip-torch]

What it prints, on the shapes the two privadapt benches use:

* Gaussian coordinates per second: numpy's PCG64 ziggurat (float64), the same four-draw sum privadapt adds
  (sigma (Z1 + Z2 + Z3 + Z4) / 2, Opacus' secure_mode construction, here on numpy's non-cryptographic bits), and,
  if PyTorch is installed, torch.randn in float32 and float64. None of these bits is cryptographically secure;
  privadapt's are (AES-256-CTR), which is why its figures are the comparison's upper side.
* One DP-SGD epoch (1/q steps, Poisson sampling with rate q = batch / n) of a one-hidden-layer ReLU network with
  softmax cross-entropy, per-example gradient norms by factorisation (||x_i||^2 ||g_i||^2 per linear layer, plus
  the bias), clipping to C = 1, the clipped sums by one matrix product per layer, and then: no noise (the
  machinery), numpy/torch Gaussian noise, and the hardened four-draw noise. The shapes:
    sparse: 2000 x 5000 rows with 150 ones each (synthetic, as `bench dpsgd` without the data), 5000-50-2,
            expected batches 32 and 256. numpy uses scipy.sparse; torch uses a dense tensor (PyTorch's Linear
            layers, as Opacus uses them, take dense input), so its machinery does more arithmetic than needed.
    dense:  5000 x 1024 Gaussian rows, 1024-256-10, expected batch 256.
  in numpy float64, and in torch float32 and float64 when torch is present.

Medians of --repeats epochs after two warm-up epochs. Set the thread count with --threads (it sets the BLAS and
torch thread counts before they are loaded); compare with privadapt on the same number of cores.
"""
import argparse
import os
import statistics
import sys
import time

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--threads", type=int, default=1, help="BLAS / torch threads (default 1)")
parser.add_argument("--repeats", type=int, default=5, help="timed repetitions (default 5)")
parser.add_argument("--skip-torch", action="store_true", help="numpy only, even if torch is installed")
args = parser.parse_args()
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(args.threads)

import numpy as np  # noqa: E402  (after the thread variables)
import scipy.sparse as sp  # noqa: E402

try:
    if args.skip_torch:
        raise ImportError("skipped")
    import torch  # noqa: E402

    torch.set_num_threads(args.threads)
except ImportError:
    torch = None


def median_seconds(work, repeats=args.repeats, warmups=2):
    for _ in range(warmups):
        work()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        work()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def noise_rates():
    n = 1_000_000
    rng = np.random.default_rng(1)
    rows = []
    t = median_seconds(lambda: rng.standard_normal(n), repeats=7, warmups=3)
    rows.append(("numpy PCG64 standard_normal, float64", n / t))
    t = median_seconds(lambda: (rng.standard_normal(n) + rng.standard_normal(n) + rng.standard_normal(n)
                                + rng.standard_normal(n)) * 0.5, repeats=7, warmups=3)
    rows.append(("numpy PCG64, four-draw sum (Z1+Z2+Z3+Z4)/2, float64", n / t))
    if torch is not None:
        for dtype in (torch.float32, torch.float64):
            t = median_seconds(lambda: torch.randn(n, dtype=dtype), repeats=7, warmups=3)
            rows.append((f"torch.randn, {dtype}", n / t))
    return rows


# ---- numpy DP-SGD epoch -------------------------------------------------------------------------------------------

def np_epoch(x, x_sq, y, dims, batch, noise, dtype, seed=3):
    """One epoch of DP-SGD; x is a float64 dense array or a scipy CSR matrix; noise in {none, plain, hardened}."""
    d, h, c = dims
    rng = np.random.default_rng(seed)
    n = x.shape[0]
    q = batch / n
    steps = round(1 / q)
    w1 = (rng.standard_normal((d, h)) / np.sqrt(d)).astype(dtype)
    b1 = np.zeros(h, dtype)
    w2 = (rng.standard_normal((h, c)) / np.sqrt(h)).astype(dtype)
    b2 = np.zeros(c, dtype)
    clip, sigma, lr = 1.0, 1.0, 0.05
    for _ in range(steps):
        idx = np.flatnonzero(rng.random(n) < q)
        if idx.size == 0:
            continue
        xb = x[idx]
        if not sp.issparse(xb):
            xb = xb.astype(dtype, copy=False)
        pre = xb @ w1 + b1
        hid = np.maximum(pre, 0)
        logits = hid @ w2 + b2
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        g2 = p
        g2[np.arange(idx.size), y[idx]] -= 1
        g1 = (g2 @ w2.T) * (pre > 0)
        g1_sq = (g1 * g1).sum(axis=1)
        g2_sq = (g2 * g2).sum(axis=1)
        norms = np.sqrt(x_sq[idx] * g1_sq + g1_sq + (hid * hid).sum(axis=1) * g2_sq + g2_sq)
        f = np.minimum(1.0, clip / np.maximum(norms, 1e-12)).astype(dtype)
        fg1 = g1 * f[:, None]
        fg2 = g2 * f[:, None]
        grads = [np.asarray(xb.T @ fg1), fg1.sum(axis=0), hid.T @ fg2, fg2.sum(axis=0)]
        for param, grad in zip((w1, b1, w2, b2), grads):
            if noise == "plain":
                grad = grad + sigma * clip * rng.standard_normal(grad.shape)
            elif noise == "hardened":
                z = rng.standard_normal(grad.shape)
                z += rng.standard_normal(grad.shape)
                z += rng.standard_normal(grad.shape)
                z += rng.standard_normal(grad.shape)
                grad = grad + (0.5 * sigma * clip) * z
            param -= (lr / batch) * grad.astype(dtype, copy=False)


# ---- torch DP-SGD epoch (the same steps with torch tensors) ---------------------------------------------------------

def torch_epoch(x, x_sq, y, dims, batch, noise, dtype, seed=3):
    d, h, c = dims
    gen = torch.Generator().manual_seed(seed)
    n = x.shape[0]
    q = batch / n
    steps = round(1 / q)
    w1 = torch.randn(d, h, generator=gen, dtype=dtype) / d ** 0.5
    b1 = torch.zeros(h, dtype=dtype)
    w2 = torch.randn(h, c, generator=gen, dtype=dtype) / h ** 0.5
    b2 = torch.zeros(c, dtype=dtype)
    clip, sigma, lr = 1.0, 1.0, 0.05
    for _ in range(steps):
        idx = torch.nonzero(torch.rand(n, generator=gen) < q).flatten()
        if idx.numel() == 0:
            continue
        xb = x.index_select(0, idx)
        pre = xb @ w1 + b1
        hid = torch.clamp_min(pre, 0)
        p = torch.softmax(hid @ w2 + b2, dim=1)
        g2 = p
        g2[torch.arange(idx.numel()), y.index_select(0, idx)] -= 1
        g1 = (g2 @ w2.T) * (pre > 0)
        g1_sq = (g1 * g1).sum(dim=1)
        g2_sq = (g2 * g2).sum(dim=1)
        norms = torch.sqrt(x_sq.index_select(0, idx) * g1_sq + g1_sq + (hid * hid).sum(dim=1) * g2_sq + g2_sq)
        f = torch.clamp(clip / torch.clamp_min(norms, 1e-12), max=1.0)
        fg1 = g1 * f[:, None]
        fg2 = g2 * f[:, None]
        grads = [xb.T @ fg1, fg1.sum(dim=0), hid.T @ fg2, fg2.sum(dim=0)]
        for param, grad in zip((w1, b1, w2, b2), grads):
            if noise == "plain":
                grad = grad + sigma * clip * torch.randn(grad.shape, generator=gen, dtype=dtype)
            elif noise == "hardened":
                z = torch.randn(grad.shape, generator=gen, dtype=dtype)
                for _ in range(3):
                    z += torch.randn(grad.shape, generator=gen, dtype=dtype)
                grad = grad + (0.5 * sigma * clip) * z
            param -= (lr / batch) * grad


def shapes():
    rng = np.random.default_rng(1)
    n, d = 2000, 5000
    cols = np.concatenate([np.sort(rng.choice(d, 150, replace=False)) for _ in range(n)])
    sparse = sp.csr_matrix((np.ones(n * 150), cols, np.arange(0, n * 150 + 1, 150)), shape=(n, d))
    y_sparse = np.arange(n) % 2
    dense = rng.standard_normal((5000, 1024))
    y_dense = rng.integers(0, 10, 5000)
    return [("sparse 2000 x 5000, 5000-50-2", sparse, y_sparse, (5000, 50, 2), (32, 256)),
            ("dense 5000 x 1024, 1024-256-10", dense, y_dense, (1024, 256, 10), (256,))]


def main():
    print(f"# peers for privadapt bench noise / dpsgd: numpy {np.__version__}, "
          f"torch {torch.__version__ if torch is not None else 'not installed'}, {args.threads} thread(s), "
          f"median of {args.repeats}\n")
    print("| generator | coordinates/s |\n|---|---:|")
    for name, rate in noise_rates():
        print(f"| {name} | {rate:.3g} |")
    print("\n| shape | batch | library | dtype | zero noise (ms) | + noise (ms) | + four-draw noise (ms) | "
          "four-draw / zero |\n|---|---:|---|---|---:|---:|---:|---:|")
    for name, x, y, dims, batches in shapes():
        x_sq = np.asarray(x.multiply(x).sum(axis=1)).ravel() if sp.issparse(x) else (x * x).sum(axis=1)
        runs = [("numpy", np.float64, np_epoch, x, x_sq, y)]
        if torch is not None:
            xt = torch.from_numpy(x.toarray() if sp.issparse(x) else x)
            for dtype in (torch.float32, torch.float64):
                runs.append(("torch", dtype, torch_epoch, xt.to(dtype), torch.from_numpy(x_sq).to(dtype),
                             torch.from_numpy(y)))
        for batch in batches:
            for lib, dtype, epoch, xs, sq, ys in runs:
                ms = [1e3 * median_seconds(lambda: epoch(xs, sq, ys, dims, batch, noise, dtype))
                      for noise in ("none", "plain", "hardened")]
                dname = dtype.__name__ if lib == "numpy" else str(dtype).replace("torch.", "")
                print(f"| {name} | {batch} | {lib} | {dname} | {ms[0]:.1f} | {ms[1]:.1f} | {ms[2]:.1f} | "
                      f"{ms[2] / ms[0]:.2f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
