// The reference's shapes of journal (issue 22).
export {};
