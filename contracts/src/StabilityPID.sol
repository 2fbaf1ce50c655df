// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {OracleFed} from "./OracleFed.sol";

/**
 * The rail's stability controller: a PID controller on the stability oracle's score (Document 1
 * §3: stable at 90 or above, caution 75 to 89, unstable below 75). Each stability oracle run feeds
 * its score (update); the controller keeps its state on chain (error, integral, last run) and
 * answers its output, the correction in score points the rail applies while it is below the
 * setpoint: 0 at or above the stable band, growing with the shortfall (P), with how long it has
 * lasted (I) and with how fast it deepens (D).
 *
 * Units: scores, setpoint, error and output in millionths of a point; gains in 1e-18 (WAD):
 * kp per point, ki per point-second, kd per point-per-second. The integral (point-seconds) is
 * clamped to +/- integralLimit (anti-windup) and the output to [outputMin, outputMax].
 * dt is the time between two runs' ids (the starts of their intervals, in seconds).
 */
contract StabilityPID is OracleFed {
    uint256 public constant SCORE_SCALE = 1e6;
    int256 public constant GAIN_SCALE = 1e18;
    int256 public constant MAX_SCORE = 100 * 1e6;

    struct Parameters {
        int256 kp;
        int256 ki;
        int256 kd;
        int256 setpoint;
        int256 outputMin;
        int256 outputMax;
        int256 integralLimit;
    }

    struct State {
        uint64 runId; // the latest run fed
        int256 measurement;
        int256 error;
        int256 integral;
        int256 derivative; // millionths of a point per second, truncated
        int256 output;
    }

    Parameters private _parameters;
    State private _state;

    event ParametersSet(int256 kp, int256 ki, int256 kd, int256 setpoint, int256 outputMin, int256 outputMax, int256 integralLimit);
    event Updated(uint64 indexed runId, int256 measurement, int256 error, int256 integral, int256 output);

    error InvalidParameters();
    error ScoreOutOfRange();

    constructor(address owner_, address oracle_, Parameters memory parameters_) OracleFed(owner_, oracle_) {
        _setParameters(parameters_);
    }

    function setParameters(Parameters calldata parameters_) external onlyOwner {
        _setParameters(parameters_);
    }

    function parameters() external view returns (Parameters memory) {
        return _parameters;
    }

    function state() external view returns (State memory) {
        return _state;
    }

    /// Feeds one stability oracle run's score (millionths of a point); answers the new output.
    function update(uint64 runId, int256 score) external onlyOracle returns (int256 output) {
        if (score < 0 || score > MAX_SCORE) revert ScoreOutOfRange();
        uint64 previousRun = latestRunId;
        _acceptRun(runId);
        Parameters memory p = _parameters;
        int256 error = p.setpoint - score;
        // The first run has no interval before it: no integral and no derivative yet.
        int256 dt = previousRun == 0 ? int256(0) : int256(uint256(runId - previousRun));
        int256 integral = _clamp(_state.integral + error * dt, -p.integralLimit, p.integralLimit);
        int256 change = dt == 0 ? int256(0) : error - _state.error;
        int256 raw = (p.kp * error + p.ki * integral + (dt == 0 ? int256(0) : p.kd * change / dt)) / GAIN_SCALE;
        output = _clamp(raw, p.outputMin, p.outputMax);
        _state = State(runId, score, error, integral, dt == 0 ? int256(0) : change / dt, output);
        emit Updated(runId, score, error, integral, output);
    }

    function _setParameters(Parameters memory p) private {
        if (p.outputMin > p.outputMax || p.integralLimit < 0 || p.setpoint < 0 || p.setpoint > MAX_SCORE) revert InvalidParameters();
        _parameters = p;
        emit ParametersSet(p.kp, p.ki, p.kd, p.setpoint, p.outputMin, p.outputMax, p.integralLimit);
    }

    function _clamp(int256 value, int256 low, int256 high) private pure returns (int256) {
        return value < low ? low : value > high ? high : value;
    }
}
