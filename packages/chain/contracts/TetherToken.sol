// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Tether USD for the dev chain
/// @notice An ERC-20 with USDT's name, symbol and 6 decimals, so that the exchange's deposit watcher and
///         withdrawal signer handle the same units as on a real chain. Only the deployer may mint: dev chain only.
contract TetherToken is ERC20, Ownable {
    constructor() ERC20("Tether USD", "USDT") Ownable(msg.sender) {}

    /// @notice 6 decimals, like USDT on Ethereum.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints `amount` token units (1 USDT = 1,000,000) to `to`; owner only.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
