//! The audit report: issues, their severity and check names, the score and the verdict.
