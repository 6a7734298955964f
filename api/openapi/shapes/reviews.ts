// The reference's shapes of reviews (issue 22).
export {};
