/**
 * Domain adaptation on plain arrays, in the idiom of scikit-learn and POT's {@code ot.da}:
 * estimators with {@code fit}, {@code transform} and {@code predict} ({@link org.privadapt.da.CoralTransport},
 * {@link org.privadapt.da.SubspaceAlignmentTransport}, {@link org.privadapt.da.OtdaTransport},
 * {@link org.privadapt.da.LogisticRegressionClassifier}). All non-private; for private training see
 * {@link org.privadapt.dp.PrivateClassifier}, for the private two-party methods {@link org.privadapt.methods.prima.Prima}.
 *
 * <pre>{@code
 * double[][] aligned = new CoralTransport(1.0).fit(xs, xt).transform(xs);
 * int[] predicted = new LogisticRegressionClassifier().fit(aligned, ys).predict(xt);
 * }</pre>
 */
package org.privadapt.da;
