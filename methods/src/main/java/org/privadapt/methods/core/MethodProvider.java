package org.privadapt.methods.core;

import java.util.List;

/**
 * A method family's entries in the registry ({@link Methods}), found with {@link java.util.ServiceLoader} so that
 * this package does not depend on the families (they depend on it). Each family package has a provider, listed in
 * {@code META-INF/services/org.privadapt.methods.core.MethodProvider} of the methods module; the registry lists the
 * providers' methods in the file's order, which is the order users see ({@code run --help}, bench tables).
 * Implementations are public with a public no-argument constructor.
 */
public interface MethodProvider {
    /** This family's methods, in the order the registry lists them. */
    List<AdaptationMethod> methods();
}
