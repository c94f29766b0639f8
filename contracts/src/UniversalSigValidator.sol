// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Signature checking for EOAs, deployed contract wallets (ERC-1271) and not-yet-deployed
// ones (EIP-6492), after the reference implementation in EIP-6492.

interface IERC1271Wallet {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4 magicValue);
}

error ERC1271Revert(bytes reason);
error ERC6492DeployFailed(bytes reason);

/// @notice The EIP-6492 singleton logic (the reference's `UniversalSigValidator`). It is not
/// meant to be deployed on its own: `UniversalSigValidator` below creates it on the fly.
contract UniversalSigValidatorImpl {
    bytes32 private constant ERC6492_DETECTION_SUFFIX = 0x6492649264926492649264926492649264926492649264926492649264926492;
    bytes4 private constant ERC1271_SUCCESS = 0x1626ba7e;
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    function isValidSigImpl(address _signer, bytes32 _hash, bytes calldata _signature, bool allowSideEffects, bool tryPrepare)
        public
        returns (bool)
    {
        uint256 contractCodeLen = address(_signer).code.length;
        bytes memory sigToValidate;
        // Order fixed by EIP-6492: the 6492 wrapper first (also when the contract is already
        // deployed, then checked against the deployed code), then ERC-1271 when there is code,
        // finally ecrecover.
        bool isCounterfactual = _signature.length >= 32
            && bytes32(_signature[_signature.length - 32:_signature.length]) == ERC6492_DETECTION_SUFFIX;
        if (isCounterfactual) {
            address create2Factory;
            bytes memory factoryCalldata;
            (create2Factory, factoryCalldata, sigToValidate) =
                abi.decode(_signature[0:_signature.length - 32], (address, bytes, bytes));

            if (contractCodeLen == 0 || tryPrepare) {
                (bool success, bytes memory err) = create2Factory.call(factoryCalldata);
                if (!success) revert ERC6492DeployFailed(err);
            }
        } else {
            sigToValidate = _signature;
        }

        // ERC-1271
        if (isCounterfactual || contractCodeLen > 0) {
            try IERC1271Wallet(_signer).isValidSignature(_hash, sigToValidate) returns (bytes4 magicValue) {
                bool isValid = magicValue == ERC1271_SUCCESS;

                // Deployed already but rejected: retry, treating the wrapper's call as a
                // "prepare" step (e.g. a pending key rotation).
                if (!isValid && !tryPrepare && contractCodeLen > 0 && isCounterfactual) {
                    return isValidSigImpl(_signer, _hash, _signature, allowSideEffects, true);
                }

                if (contractCodeLen == 0 && isCounterfactual && !allowSideEffects) {
                    // Undo the deployment by returning the verdict as a 1-byte revert.
                    assembly {
                        mstore(0, isValid)
                        revert(31, 1)
                    }
                }

                return isValid;
            } catch (bytes memory err) {
                if (!tryPrepare && contractCodeLen > 0 && isCounterfactual) {
                    return isValidSigImpl(_signer, _hash, _signature, allowSideEffects, true);
                }
                revert ERC1271Revert(err);
            }
        }

        // ecrecover. Deviation from the reference: a malformed signature (length, v) or a
        // high-s one is "invalid" (false) rather than a revert, and v may be 0/1.
        if (_signature.length != 65) return false;
        bytes32 r = bytes32(_signature[0:32]);
        bytes32 s = bytes32(_signature[32:64]);
        uint8 v = uint8(_signature[64]);
        if (v < 27) v += 27;
        if ((v != 27 && v != 28) || uint256(s) > HALF_ORDER) return false;
        address recovered = ecrecover(_hash, v, r, s);
        return recovered != address(0) && recovered == _signer;
    }

    function isValidSigWithSideEffects(address _signer, bytes32 _hash, bytes calldata _signature) external returns (bool) {
        return this.isValidSigImpl(_signer, _hash, _signature, true, false);
    }

    function isValidSig(address _signer, bytes32 _hash, bytes calldata _signature) external returns (bool) {
        try this.isValidSigImpl(_signer, _hash, _signature, false, false) returns (bool isValid) {
            return isValid;
        } catch (bytes memory reason) {
            // A 1-byte revert is the verdict of a counterfactual check (see above); anything
            // else is a real error and is passed on.
            uint256 len = reason.length;
            if (len == 1) return reason[0] == 0x01;
            assembly {
                revert(add(reason, 0x20), len)
            }
        }
    }
}

/// @notice Deployless validator (the reference's `ValidateSigOffchain`): run it as an eth_call
/// with no `to` and data = creation bytecode ++ abi.encode(signer, hash, signature). The
/// constructor answers a single byte, 0x01 valid or 0x00 invalid; nothing is persisted.
contract UniversalSigValidator {
    constructor(address _signer, bytes32 _hash, bytes memory _signature) {
        UniversalSigValidatorImpl validator = new UniversalSigValidatorImpl();
        bool isValidSig = validator.isValidSigWithSideEffects(_signer, _hash, _signature);
        assembly {
            mstore(0, isValidSig)
            return(31, 1)
        }
    }
}
