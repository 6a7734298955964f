// The reference's shapes of library (issue 22).
export {};
