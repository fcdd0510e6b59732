/**
 * Query keys of recipes, sets and their deployment. The recipes and sets lists themselves are
 * reference data (`['reference', 'recipes']`, `['reference', 'recipesSets']`, docs/contract.md, "Product and areas").
 */
export const recipeKeys = {
  all: ['recipes'] as const,
  detail: (id: number) => ['recipes', id] as const,
};

export const recipeSetKeys = {
  all: ['recipe-sets'] as const,
  detail: (id: number) => ['recipe-sets', id] as const,
};

/** What a device holds and how its delivery goes (`get_upload_status`). */
export const deploymentKeys = {
  all: ['recipe-deployment'] as const,
  status: (deviceId: number) => ['recipe-deployment', deviceId, 'status'] as const,
};
