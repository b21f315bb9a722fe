/**
 * The private releases and models as Spark ML pipeline stages (issue 45 item 3): {@link PrimaTargetRelease} (PRIMA's
 * target release, a {@link PrimaTargetReleaseModel} holding its artifact), {@link PrimaSourceTrainer} (the source's
 * DP model on a target release, a {@link PrimaSourceClassifier} that predicts) and {@link DpTargetOnlyRegressor}
 * (paper 003's target-only DP regression baseline, a {@link DpTargetOnlyRegressionModel} that predicts w . x). Each
 * fit is the spark module's release (the one the CLI's {@code --engine spark} makes), charged to the party's ledger as
 * the CLI charges it; each model saves and loads the project's artifact with its privacy block (docs/spark.md, "Spark
 * ML pipeline stages").
 */
package org.privadapt.sparkml;
