// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {OracleFed} from "./OracleFed.sol";

/**
 * The basket peg reference (Document 1 §2 reliability `peg`, §3 "Peg"): the stablecoin basket the
 * rail's peg is measured on, its weights (each coin's share of the basket's circulating supply),
 * the reference value the basket is pegged to (1 USD), and each stability oracle run's measured
 * deviation of the basket from it. At a deviation of deviationThresholdBps (50) or more the peg
 * alert is on and settlement is held; pegAlert() answers that for any contract.
 *
 * Weights are in millionths and sum to exactly 1,000,000; the reference value in millionths of a
 * USD; the deviation in hundredths of a basis point. A run without live prices publishes the
 * weights with measured = false (the deviation is then unknown, never 0).
 */
contract BasketPeg is OracleFed {
    uint256 public constant WEIGHT_SCALE = 1e6;

    struct Basket {
        uint64 runId;
        uint64 publishedAt;
        bool measured;
        uint32 deviationCentiBps;
        string[] assets;
        uint32[] weights;
    }

    uint256 public referenceValue; // millionths of a USD
    uint256 public deviationThresholdBps;
    uint256 public verificationCycleSeconds;
    Basket private _basket;

    event PegParametersSet(uint256 referenceValue, uint256 deviationThresholdBps, uint256 verificationCycleSeconds);
    event BasketPublished(uint64 indexed runId, bool measured, uint32 deviationCentiBps, string[] assets, uint32[] weights);

    error WeightsMismatch();
    error WeightsNotWhole(uint256 total);
    error InvalidParameters();

    constructor(address owner_, address oracle_, uint256 referenceValue_, uint256 deviationThresholdBps_, uint256 verificationCycleSeconds_)
        OracleFed(owner_, oracle_)
    {
        _setPegParameters(referenceValue_, deviationThresholdBps_, verificationCycleSeconds_);
    }

    function setPegParameters(uint256 referenceValue_, uint256 deviationThresholdBps_, uint256 verificationCycleSeconds_) external onlyOwner {
        _setPegParameters(referenceValue_, deviationThresholdBps_, verificationCycleSeconds_);
    }

    function publishBasket(uint64 runId, string[] calldata assets, uint32[] calldata weights, bool measured, uint32 deviationCentiBps)
        external
        onlyOracle
    {
        if (assets.length == 0 || assets.length != weights.length) revert WeightsMismatch();
        uint256 total;
        for (uint256 i = 0; i < weights.length; i++) total += weights[i];
        if (total != WEIGHT_SCALE) revert WeightsNotWhole(total);
        _acceptRun(runId);
        _basket = Basket(runId, uint64(block.timestamp), measured, measured ? deviationCentiBps : 0, assets, weights);
        emit BasketPublished(runId, measured, _basket.deviationCentiBps, assets, weights);
    }

    function basket() external view returns (Basket memory) {
        return _basket;
    }

    /// True when the latest run measured a deviation at or above the threshold: settlement is held.
    function pegAlert() external view returns (bool) {
        return _basket.measured && uint256(_basket.deviationCentiBps) >= deviationThresholdBps * 100;
    }

    function _setPegParameters(uint256 referenceValue_, uint256 deviationThresholdBps_, uint256 verificationCycleSeconds_) private {
        if (referenceValue_ == 0 || deviationThresholdBps_ == 0) revert InvalidParameters();
        referenceValue = referenceValue_;
        deviationThresholdBps = deviationThresholdBps_;
        verificationCycleSeconds = verificationCycleSeconds_;
        emit PegParametersSet(referenceValue_, deviationThresholdBps_, verificationCycleSeconds_);
    }
}
