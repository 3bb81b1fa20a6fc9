// Types of scripts/action-docs.mjs, for its test.
/** The inputs and outputs tables, from action.yml's text. */
export declare function actionTables(yamlText: string): { inputs: string; outputs: string };
/** The page with its marked tables written afresh from action.yml's text. */
export declare function withActionTables(markdown: string, yamlText: string): string;
