//! Ridge regression with an unpenalized intercept on features standardized
//! over the training rows only (spec: realization-gaps.md, "Family-held-out ridge").
//!
//! 1. Each feature is centred and scaled with the mean and the *population*
//!    standard deviation (divide by n) of the training rows. A feature whose
//!    training values are all equal ([`crate::summary::is_constant`]) becomes 0 for
//!    training and prediction rows alike.
//! 2. Because the standardized features are centred, the intercept is the training
//!    mean of y and `w = (Z'Z + alpha I)^-1 Z'(y - mean y)`, solved by Cholesky
//!    (the matrix is symmetric positive definite for alpha > 0).

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use crate::summary::{is_constant, population_variance};

/// A validated ridge penalty: finite and strictly positive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Alpha(f64);

/// A parameter that failed validation, with the offending value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParamError {
    #[error("alpha must be a finite number greater than 0, got {0}")]
    Alpha(f64),
}

impl Alpha {
    /// The paper's common reference penalty.
    pub const DEFAULT: Alpha = Alpha(10.0);

    pub fn new(value: f64) -> Result<Self, ParamError> {
        if value.is_finite() && value > 0.0 {
            Ok(Alpha(value))
        } else {
            Err(ParamError::Alpha(value))
        }
    }

    pub fn get(self) -> f64 {
        self.0
    }
}

impl Default for Alpha {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl TryFrom<f64> for Alpha {
    type Error = ParamError;
    fn try_from(value: f64) -> Result<Self, Self::Error> {
        Alpha::new(value)
    }
}

impl From<Alpha> for f64 {
    fn from(a: Alpha) -> f64 {
        a.0
    }
}

/// Why a fit could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RidgeError {
    #[error("no training rows")]
    NoTrainingRows,
    #[error("{rows} training rows but {targets} target values")]
    ShapeMismatch { rows: usize, targets: usize },
    #[error(
        "the penalized normal equations are not numerically positive definite (alpha = {alpha})"
    )]
    NotPositiveDefinite { alpha: f64 },
}

/// A fitted ridge model in the original feature units.
#[derive(Clone, Debug, PartialEq)]
pub struct RidgeFit {
    /// Training mean of each feature.
    pub mean: Vec<f64>,
    /// Training population SD of each feature; 0 marks a constant feature,
    /// which contributes nothing to predictions.
    pub scale: Vec<f64>,
    /// Training mean of the target.
    pub intercept: f64,
    /// Coefficients on the standardized features.
    pub coef: Vec<f64>,
}

impl RidgeFit {
    /// Fit on training rows `x` (rows × features) and targets `y`.
    pub fn fit(x: &DMatrix<f64>, y: &[f64], alpha: Alpha) -> Result<Self, RidgeError> {
        let (n, p) = x.shape();
        if n == 0 {
            return Err(RidgeError::NoTrainingRows);
        }
        if y.len() != n {
            return Err(RidgeError::ShapeMismatch {
                rows: n,
                targets: y.len(),
            });
        }
        let mut mean = Vec::with_capacity(p);
        let mut scale = Vec::with_capacity(p);
        let mut z = DMatrix::<f64>::zeros(n, p);
        for j in 0..p {
            let col: Vec<f64> = x.column(j).iter().copied().collect();
            let m = col.iter().sum::<f64>() / n as f64;
            let var = population_variance(&col, m);
            let s = if is_constant(&col) || var <= 0.0 {
                0.0
            } else {
                var.sqrt()
            };
            if s > 0.0 {
                for i in 0..n {
                    z[(i, j)] = (col[i] - m) / s;
                }
            }
            mean.push(m);
            scale.push(s);
        }
        let intercept = y.iter().sum::<f64>() / n as f64;
        let yc = DVector::from_iterator(n, y.iter().map(|v| v - intercept));
        let zt = z.transpose();
        let mut gram = &zt * &z;
        for j in 0..p {
            gram[(j, j)] += alpha.get();
        }
        let rhs = &zt * yc;
        let chol = gram
            .cholesky()
            .ok_or(RidgeError::NotPositiveDefinite { alpha: alpha.get() })?;
        let w = chol.solve(&rhs);
        Ok(RidgeFit {
            mean,
            scale,
            intercept,
            coef: w.iter().copied().collect(),
        })
    }

    /// Predict one row given in original units.
    pub fn predict(&self, row: &[f64]) -> f64 {
        let mut yhat = self.intercept;
        for (j, v) in row.iter().enumerate() {
            if self.scale[j] > 0.0 {
                yhat += self.coef[j] * (v - self.mean[j]) / self.scale[j];
            }
        }
        yhat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_is_validated() {
        assert!(Alpha::new(10.0).is_ok());
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let err = Alpha::new(bad).unwrap_err();
            assert!(err.to_string().contains("greater than 0"), "{err}");
        }
        let parsed: Result<Alpha, _> = serde_json::from_str("-3");
        assert!(parsed.is_err());
    }

    #[test]
    fn one_feature_closed_form() {
        // x = 1, 2, 3 (mean 2, population sd sqrt(2/3)); y = 1, 3, 2.
        // z = (-1, 0, 1)/sqrt(2/3); sum z^2 = 3; sum z (y - 2) = (1 + 0)/sqrt(2/3)... :
        // y - 2 = (-1, 1, 0); z.(y-2) = (1 + 0 + 0)/s with s = sqrt(2/3).
        // w = (1/s) / (3 + alpha). With alpha = 1: w = 1/(4 s).
        // Prediction at x = 4: 2 + w (4 - 2)/s = 2 + 2/(4 s^2) = 2 + 2/(4 * 2/3) = 2.75.
        let x = DMatrix::from_row_slice(3, 1, &[1.0, 2.0, 3.0]);
        let fit = RidgeFit::fit(&x, &[1.0, 3.0, 2.0], Alpha::new(1.0).unwrap()).unwrap();
        assert!((fit.predict(&[4.0]) - 2.75).abs() < 1e-12);
        assert_eq!(fit.intercept, 2.0);
    }

    #[test]
    fn constant_feature_is_zeroed() {
        let x = DMatrix::from_row_slice(3, 2, &[0.1, 1.0, 0.1, 2.0, 0.1, 3.0]);
        let fit = RidgeFit::fit(&x, &[1.0, 3.0, 2.0], Alpha::new(1.0).unwrap()).unwrap();
        assert_eq!(fit.scale[0], 0.0);
        // The constant column has no effect even at a wildly different value.
        assert_eq!(fit.predict(&[0.1, 4.0]), fit.predict(&[1e6, 4.0]));
        assert!((fit.predict(&[0.1, 4.0]) - 2.75).abs() < 1e-12);
    }

    #[test]
    fn shape_errors() {
        let x = DMatrix::<f64>::zeros(0, 2);
        assert_eq!(
            RidgeFit::fit(&x, &[], Alpha::DEFAULT),
            Err(RidgeError::NoTrainingRows)
        );
        let x = DMatrix::<f64>::zeros(2, 2);
        assert!(matches!(
            RidgeFit::fit(&x, &[1.0], Alpha::DEFAULT),
            Err(RidgeError::ShapeMismatch { .. })
        ));
    }
}
