/** Where the examples find `@service/react`. */
export const EXAMPLES_PACKAGE: string;
/** Packs the package and extracts it into {@link EXAMPLES_PACKAGE}; returns the hash of its content. */
export function installExamplesPackage(): { sha256: string };
