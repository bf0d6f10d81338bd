export declare const MONEY_TESTS: string[];
export declare const MONEY_EXCLUDES: string[];
