/** Bundles one TypeScript file for Node and returns the path of the ES module it wrote. */
export function bundleTs(file: string): Promise<string>;
