// Vendor risk, pure (Document 2 §2 and §4, decisions 0014 and 0020): the screening and the score.

export {
  assessVendorRisk,
  COMPLIANCE_WEIGHT,
  type ComplianceVerdict,
  DEDUCTIONS,
  DEFAULT_ESG_SCORE,
  ESG_WEIGHT,
  type VendorFindings,
  type VendorRisk,
  type VendorRiskTier,
  vendorRiskTier,
  type VendorScreening,
  vendorScreeningOf,
  VERDICT_SCORES,
} from './vendor-risk.js';
