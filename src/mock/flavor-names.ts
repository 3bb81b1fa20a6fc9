// The names of the mock's flavors, apart from the flavors themselves, so the CLI can offer them without loading the mock.

export const FLAVOR_NAMES = ['seed', 'phprank'] as const;
export type FlavorName = (typeof FLAVOR_NAMES)[number];
