#!/usr/bin/env python3
"""Peer figure for diagonal-covariance Gaussian mixture EM (issue 32, item 3). Run by hand; not part of CI.

    python3 docs/peers/gmm_peer.py [--threads N] [--n 20000] [--d 512] [--k 10] [--iterations 5] [--repeats 3]

Times one EM iteration (E-step and M-step) of a diagonal Gaussian mixture in numpy float64, written here from the
formulas scikit-learn's GaussianMixture(covariance_type="diag") uses, so that it can stand in for scikit-learn where
scikit-learn cannot be installed (this machine reaches no Python package index). Per iteration:

* E-step: with precisions P = 1 / var (K x d) and means M (K x d), the Gaussian log-densities of all rows by three
  terms, sum_j M^2 P (per component), -2 X (M P)^T and (X o X) P^T, i.e. two n x d x K matrix products; the
  log-determinant term, the log-weights, a log-sum-exp over the components and the responsibilities R.
* M-step: N = column sums of R, means R^T X / N, second moments R^T (X o X) / N, variances = second moments - means^2
  + reg (1e-6), weights N / n: two more n x d x K products. X o X is formed once per step (twice per iteration), as
  scikit-learn does.

privadapt's counterpart: `java -cp cli/target/privadapt.jar org.privadapt.models.mixture.EmBenchmark 20000 512 10 5 3`
(which deliberately computes the variances as centred sums, bit for bit with its triple loop, not by the faster
second-moment product above: docs/performance.md). Both draw n rows of a random K-component diagonal mixture
(means N(0, 4), standard deviations in [0.5, 1.5]); the timing does not depend on the values. Median of --repeats
timed runs of --iterations iterations each, after one warm-up run; per iteration = run time / iterations.
"""
import argparse
import os
import statistics
import time

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--threads", type=int, default=2, help="BLAS threads (default 2)")
parser.add_argument("--n", type=int, default=20000)
parser.add_argument("--d", type=int, default=512)
parser.add_argument("--k", type=int, default=10)
parser.add_argument("--iterations", type=int, default=5)
parser.add_argument("--repeats", type=int, default=3)
args = parser.parse_args()
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(args.threads)

import numpy as np  # noqa: E402  (after the thread variables)

REG = 1e-6


def data(n, d, k, seed=1):
    rng = np.random.default_rng(seed)
    mu = 2 * rng.standard_normal((k, d))
    sd = 0.5 + rng.random((k, d))
    c = rng.integers(0, k, n)
    return mu[c] + sd[c] * rng.standard_normal((n, d))


def e_step(x, weights, means, variances):
    """Log-likelihood per row and the responsibilities, by the three-term expansion of the diagonal Gaussian."""
    d = x.shape[1]
    precisions = 1.0 / variances
    log_det = -0.5 * np.log(variances).sum(axis=1)
    quad = (means ** 2 * precisions).sum(axis=1) - 2.0 * x @ (means * precisions).T + (x * x) @ precisions.T
    log_prob = -0.5 * (d * np.log(2 * np.pi) + quad) + log_det + np.log(weights)
    top = log_prob.max(axis=1, keepdims=True)
    norm = top[:, 0] + np.log(np.exp(log_prob - top).sum(axis=1))
    return norm, np.exp(log_prob - norm[:, None])


def m_step(x, resp):
    nk = resp.sum(axis=0) + 10 * np.finfo(float).eps
    means = resp.T @ x / nk[:, None]
    second = resp.T @ (x * x) / nk[:, None]
    variances = second - means ** 2 + REG
    return nk / x.shape[0], means, variances


def run(x, k, iterations, seed=7):
    rng = np.random.default_rng(seed)
    resp = rng.random((x.shape[0], k))
    resp /= resp.sum(axis=1, keepdims=True)
    weights, means, variances = m_step(x, resp)
    t0 = time.perf_counter()
    for _ in range(iterations):
        ll, resp = e_step(x, weights, means, variances)
        weights, means, variances = m_step(x, resp)
    return (time.perf_counter() - t0) / iterations, ll.mean()


x = data(args.n, args.d, args.k)
run(x, args.k, args.iterations)  # warm-up
times = []
for _ in range(args.repeats):
    per, ll = run(x, args.k, args.iterations)
    times.append(per * 1000)
print(f"numpy {np.__version__} diag EM n={args.n} d={args.d} K={args.k}, {args.threads} BLAS thread(s): "
      f"{statistics.median(times):.1f} ms per iteration (median of {args.repeats}; min {min(times):.1f}, "
      f"max {max(times):.1f}); mean log-likelihood {ll:.6f}")
