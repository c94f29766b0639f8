// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Signature recovery shared by Permit2 and SmartWallet. Returns address(0) instead of
/// reverting so each caller keeps its own error surface.
library ECDSA {
    /// secp256k1n / 2: signatures with a larger s are malleable twins and are rejected.
    uint256 internal constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// Accepts 65-byte (r, s, v) with v in {0, 1, 27, 28} and 64-byte EIP-2098 (r, vs).
    /// Returns address(0) for any other length, a high s, a bad v or a failed recovery.
    function recover(bytes32 hash, bytes memory sig) internal pure returns (address) {
        bytes32 r;
        bytes32 s;
        uint8 v;
        if (sig.length == 65) {
            assembly {
                r := mload(add(sig, 0x20))
                s := mload(add(sig, 0x40))
                v := byte(0, mload(add(sig, 0x60)))
            }
        } else if (sig.length == 64) {
            bytes32 vs;
            assembly {
                r := mload(add(sig, 0x20))
                vs := mload(add(sig, 0x40))
            }
            s = vs & bytes32(0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff);
            v = uint8(uint256(vs >> 255)) + 27;
        } else {
            return address(0);
        }
        if (v < 27) v += 27;
        if (v != 27 && v != 28) return address(0);
        if (uint256(s) > HALF_ORDER) return address(0);
        return ecrecover(hash, v, r, s);
    }
}
