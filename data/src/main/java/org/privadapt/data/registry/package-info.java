/**
 * The benchmark suites of {@code ../shared/data}: their files, domains, splits, documented
 * shapes and protocols ({@link org.privadapt.data.registry.BenchmarkRegistry}); references
 * {@code suite/domain[:split]}.
 */
package org.privadapt.data.registry;
